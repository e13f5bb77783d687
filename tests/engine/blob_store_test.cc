// Blobs (store/blob_store.h): bodies written a chunk at a time, read by
// range, owned by the world record naming them — ownership moved and freed
// in the world save's transaction — and what a crash left half-written
// freed by the next writer; a blob several records name is freed by the
// last of them. Md5 (base/md5.h) against RFC 1321's vectors, Sha256
// (base/sha256.h) against FIPS 180-4's.
#include <catch2/catch.hpp>

#include <filesystem>

#include "base/md5.h"
#include "base/sha256.h"
#include "store/blob_store.h"
#include "store/schema.h"
#include "store/world_table.h"
#include "template/parse.h"
#include "test_util.h"
#include "world/world.h"

namespace ms {
namespace {

std::unique_ptr<Database> FreshStore(const std::string& name) {
  const std::string path = (std::filesystem::temp_directory_path() / ("moonstack_blobs_" + name + ".db")).string();
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
  std::unique_ptr<Database> db;
  REQUIRE(OpenStore(path, &db).ok());
  return db;
}

BlobInfo Write(Database* db, const std::string& bytes) {
  std::unique_ptr<BlobWriter> w;
  REQUIRE(BlobWriter::Create(db, &w).ok());
  // In uneven pieces, across chunk edges.
  for (size_t at = 0; at < bytes.size(); at += 300001) REQUIRE(w->Append(std::string_view(bytes).substr(at, 300001)).ok());
  BlobInfo info;
  REQUIRE(w->Finish(&info).ok());
  return info;
}

std::string Read(Database* db, int64_t id, uint64_t offset, uint64_t length) {
  std::string out;
  REQUIRE(ReadBlob(db, id, offset, length, [&](std::string_view c) {
            out.append(c);
            return true;
          }).ok());
  return out;
}

int64_t Count(Database* db, const char* table) {
  std::unique_ptr<Statement> st;
  REQUIRE(db->Prepare(std::string("SELECT count(*) FROM ") + table, &st).ok());
  bool row = false;
  REQUIRE(st->Step(&row).ok());
  return st->Int(0);
}

WorldRecord Owning(std::vector<int64_t> ids) {
  Value blobs = Value::MakeList();
  for (int64_t id : ids) blobs.mutable_list().push_back(Value::Integer(id));
  Value data = Value::MakeMap();
  data.set("Blobs", std::move(blobs));
  return WorldRecord(std::move(data));
}

}  // namespace

TEST_CASE("md5: RFC 1321's test suite, fed whole and in pieces", "[store][blobs]") {
  CHECK(Md5Hex("") == "d41d8cd98f00b204e9800998ecf8427e");
  CHECK(Md5Hex("abc") == "900150983cd24fb0d6963f7d28e17f72");
  CHECK(Md5Hex("12345678901234567890123456789012345678901234567890123456789012345678901234567890") ==
        "57edf4a22be3c955ac49da2e2107b67a");
  Md5 pieces;
  for (char c : std::string("message digest")) pieces.Update(std::string_view(&c, 1));
  CHECK(pieces.FinalHex() == "f96b697d7cb7938d525a2f31aaf161d0");
}

TEST_CASE("sha256: FIPS 180-4's examples and a million a's, fed whole and in pieces", "[store][blobs]") {
  auto hex = [](const std::string& raw) {
    std::string out;
    for (unsigned char c : raw) out += "0123456789abcdef"[c >> 4], out += "0123456789abcdef"[c & 15];
    return out;
  };
  CHECK(hex(Sha256Digest("")) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(hex(Sha256Digest("abc")) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(hex(Sha256Digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")) ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  Sha256 pieces;
  for (int i = 0; i < 1000; ++i) pieces.Update(std::string(1000, 'a'));
  const std::array<uint8_t, 32> d = pieces.Final();
  CHECK(hex(std::string(d.begin(), d.end())) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("blobs: written in chunks, read back by any range, digested as written", "[store][blobs]") {
  auto db = FreshStore("ranges");
  std::string bytes(3 * kBlobChunkBytes + 12345, '\0');
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>((i * 7919) >> 3);
  BlobInfo info = Write(db.get(), bytes);
  CHECK(info.size == bytes.size());
  CHECK(info.md5 == Md5Hex(bytes));
  CHECK(Count(db.get(), "blob_chunks") == 4);
  CHECK(Read(db.get(), info.id, 0, bytes.size()) == bytes);
  CHECK(Read(db.get(), info.id, kBlobChunkBytes - 3, 10) == bytes.substr(kBlobChunkBytes - 3, 10));
  CHECK(Read(db.get(), info.id, bytes.size() - 5, 5) == bytes.substr(bytes.size() - 5));
  CHECK(ReadBlob(db.get(), info.id + 1, 0, 1, [](std::string_view) { return true; }).code() ==
        Status::Code::kNotFound);
}

TEST_CASE("blobs: owned by the record naming them, moved, dropped and cleared with the world's saves",
          "[store][blobs]") {
  auto db = FreshStore("owners");
  World w;
  const int64_t a = Write(db.get(), "part one").id, b = Write(db.get(), "part two").id;
  const int64_t c = Write(db.get(), "replacement").id;
  w.Put("s3.part", "u/1", Owning({a}));
  w.Put("s3.part", "u/2", Owning({b}));
  REQUIRE(SaveWorld(db.get(), &w).ok());
  // A multipart completion: the parts' blobs move to the object in one save.
  w.Put("s3.object", "bucket/key", Owning({a, b}));
  w.Remove("s3.part", "u/1");
  w.Remove("s3.part", "u/2");
  REQUIRE(SaveWorld(db.get(), &w).ok());
  CHECK(Count(db.get(), "blobs") == 3);
  CHECK(Read(db.get(), a, 0, 8) == "part one");
  // Overwritten: the blob the record stopped naming is freed.
  w.Put("s3.object", "bucket/key", Owning({c}));
  REQUIRE(SaveWorld(db.get(), &w).ok());
  CHECK(Count(db.get(), "blobs") == 1);
  CHECK(Count(db.get(), "blob_chunks") == 1);
  // A half-written blob (a crash mid-upload) belongs to nobody: the next writer frees it.
  std::unique_ptr<BlobWriter> crashed;
  REQUIRE(BlobWriter::Create(db.get(), &crashed).ok());
  REQUIRE(crashed->Append(std::string(kBlobChunkBytes + 1, 'x')).ok());
  CHECK(Count(db.get(), "blobs") == 2);
  REQUIRE(DeletePendingBlobs(db.get()).ok());
  CHECK(Count(db.get(), "blobs") == 1);
  CHECK(Count(db.get(), "blob_chunks") == 1);
  // A reset: every record removed, every blob freed.
  w.Clear();
  REQUIRE(SaveWorld(db.get(), &w).ok());
  CHECK(Count(db.get(), "blobs") == 0);
  CHECK(Count(db.get(), "blob_chunks") == 0);
}

TEST_CASE("blobs: a world loaded from the store still frees what its records own", "[store][blobs]") {
  auto db = FreshStore("reload");
  const int64_t a = Write(db.get(), "kept").id;
  {
    World w;
    w.Put("s3.object", "b/k", Owning({a}));
    REQUIRE(SaveWorld(db.get(), &w).ok());
  }
  World loaded;
  REQUIRE(LoadWorld(db.get(), &loaded).ok());
  loaded.Remove("s3.object", "b/k");
  REQUIRE(SaveWorld(db.get(), &loaded).ok());
  CHECK(Count(db.get(), "blobs") == 0);
}

TEST_CASE("blobs: several records may own one blob: it is freed when the last of them lets it go",
          "[store][blobs]") {
  auto db = FreshStore("shared");
  World w;
  const int64_t code = Write(db.get(), "PK\3\4 the function's zip").id;
  const int64_t next = Write(db.get(), "PK\3\4 its next zip").id;
  w.Put("s3.object", "assets/fn.zip", Owning({code}));
  REQUIRE(SaveWorld(db.get(), &w).ok());
  // A function takes the object's code (its own copy, as Lambda keeps one); in the same save
  // the object is overwritten with the next build: the bytes the function runs stay.
  w.Put("lambda.function", "us-east-1:fn", Owning({code}));
  w.Put("s3.object", "assets/fn.zip", Owning({next}));
  REQUIRE(SaveWorld(db.get(), &w).ok());
  CHECK(Count(db.get(), "blobs") == 2);
  CHECK(Count(db.get(), "blob_owners") == 2);
  CHECK(Read(db.get(), code, 0, 6) == "PK t");
  // The function updated to the object's new code: the old bytes have no owner left.
  w.Put("lambda.function", "us-east-1:fn", Owning({next}));
  REQUIRE(SaveWorld(db.get(), &w).ok());
  CHECK(Count(db.get(), "blobs") == 1);
  CHECK(Count(db.get(), "blob_owners") == 2);
  CHECK(ReadBlob(db.get(), code, 0, 1, [](std::string_view) { return true; }).code() == Status::Code::kNotFound);
  // The object deleted: the function still owns the bytes; then the function deleted too.
  w.Remove("s3.object", "assets/fn.zip");
  REQUIRE(SaveWorld(db.get(), &w).ok());
  CHECK(Count(db.get(), "blobs") == 1);
  CHECK(Read(db.get(), next, 0, 6) == "PK i");
  w.Remove("lambda.function", "us-east-1:fn");
  REQUIRE(SaveWorld(db.get(), &w).ok());
  CHECK(Count(db.get(), "blobs") == 0);
  CHECK(Count(db.get(), "blob_owners") == 0);
  CHECK(Count(db.get(), "blob_chunks") == 0);
  // A record naming a blob already freed does not bring it back.
  w.Put("lambda.function", "us-east-1:stale", Owning({code}));
  REQUIRE(SaveWorld(db.get(), &w).ok());
  CHECK(Count(db.get(), "blob_owners") == 0);
}

TEST_CASE("blobs: schema 17 gives each blob of a schema-16 state its owner row", "[store][blobs]") {
  const std::string path = (std::filesystem::temp_directory_path() / "moonstack_blobs_schema16.db").string();
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
  int64_t owned = 0;
  {
    std::unique_ptr<Database> db;
    REQUIRE(OpenStore(path, &db).ok());
    owned = Write(db.get(), "an object's body").id;
    Write(db.get(), "half-written when it crashed");
    World w;
    w.Put("s3.object", "b/k", Owning({owned}));
    REQUIRE(SaveWorld(db.get(), &w).ok());
    REQUIRE(db->Exec(test::kUndoSchema18 + test::kUndoSchema17).ok());
    REQUIRE(db->SetUserVersion(16).ok());
  }
  std::unique_ptr<Database> db;
  REQUIRE(OpenStore(path, &db).ok());
  int version = 0;
  REQUIRE(db->UserVersion(&version).ok());
  CHECK(version == 18);
  CHECK(Count(db.get(), "blob_owners") == 1);
  REQUIRE(DeletePendingBlobs(db.get()).ok());  // the pending one goes, the owned one stays
  CHECK(Count(db.get(), "blobs") == 1);
  World loaded;
  REQUIRE(LoadWorld(db.get(), &loaded).ok());
  loaded.Remove("s3.object", "b/k");
  REQUIRE(SaveWorld(db.get(), &loaded).ok());
  CHECK(Count(db.get(), "blobs") == 0);
}

}  // namespace ms
