return {
  create = { Name = "a", Size = 1 },
  updates = { { Size = 2 } },
}
