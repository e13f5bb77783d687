return {
  create = { Name = "a" },
  updates = { { Name = "b" } },
}
