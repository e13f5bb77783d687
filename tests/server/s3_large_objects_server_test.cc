// S3 objects far over a Lua string's comfort through `moonstack serve`
// (host/server/aws_api.h, engine/store/blob_store.h): boto3's upload_file
// (multipart, parts in parallel) and download_file (ranged GETs in
// parallel) of a 30 MiB file, its bytes kept as blobs of the state file —
// the world record holds their ids, size and ETag only — with bounded
// memory; S3's multipart errors; and every way an object goes away (delete,
// overwrite, abort, bucket delete, reset) freeing its blobs.
#include <fstream>

#include "server/server_fixture.h"

namespace ms::test::server {
namespace {

// The server's peak resident set so far (VmHWM), in MiB.
long PeakRssMiB(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6)) / 1024;
  }
  return -1;
}

// A python3 prelude: `s3`, a client for the server, and `blobs()`, the
// blob and chunk rows of its state file.
std::string Prelude(const Server& s) {
  return "import hashlib, os, sqlite3\n"
         "from boto3.s3.transfer import TransferConfig\n"
         "s3 = boto3.client('s3', endpoint_url='http://127.0.0.1:" + std::to_string(s.port()) +
         "', region_name='us-east-1')\n"
         "def blobs():\n"
         "    db = sqlite3.connect('" + s.dir() + "/state.db')\n"
         "    n = [db.execute('SELECT count(*) FROM blobs').fetchone()[0],\n"
         "         db.execute('SELECT count(*) FROM blob_chunks').fetchone()[0]]\n"
         "    db.close()\n"
         "    return n\n";
}

TEST_CASE("a 30 MiB file through upload_file and download_file: multipart up, ranged GETs down, bounded memory",
          "[server][aws][s3]") {
  Server s("s3_large_round_trip");
  json r = s.Python(Prelude(s) + R"(
s3.create_bucket(Bucket='big')
data = os.urandom(30 << 20)
up, down = ')" + s.dir() + R"(/up.bin', ')" + s.dir() + R"(/down.bin'
open(up, 'wb').write(data)
config = TransferConfig(multipart_threshold=8 << 20, multipart_chunksize=8 << 20, max_concurrency=4)
s3.upload_file(up, 'big', 'dir/object.bin', Config=config)
s3.download_file('big', 'dir/object.bin', down, Config=config)
head = s3.head_object(Bucket='big', Key='dir/object.bin')
parts = [data[i:i + (8 << 20)] for i in range(0, len(data), 8 << 20)]
etag = hashlib.md5(b''.join(hashlib.md5(p).digest() for p in parts)).hexdigest() + '-' + str(len(parts))
ranged = s3.get_object(Bucket='big', Key='dir/object.bin', Range='bytes=%d-%d' % ((9 << 20) - 5, (9 << 20) + 4))
db = sqlite3.connect(')" + s.dir() + R"(/state.db')
record = db.execute("SELECT length(data) FROM world WHERE kind = 's3.object'").fetchone()[0]
stored = db.execute('SELECT sum(size) FROM blobs').fetchone()[0]
print(json.dumps({'same': open(down, 'rb').read() == data, 'length': head['ContentLength'],
                  'etag': head['ETag'] == '"' + etag + '"',
                  'range': [ranged['ResponseMetadata']['HTTPStatusCode'], ranged['ContentRange'],
                            ranged['Body'].read() == data[(9 << 20) - 5:(9 << 20) + 5]],
                  'past_end': error(s3.get_object, Bucket='big', Key='dir/object.bin', Range='bytes=%d-' % len(data)),
                  'record_bytes': record, 'blob_bytes': stored, 'blobs': blobs()}))
)");
  CHECK(r["same"] == true);
  CHECK(r["length"] == 30 << 20);
  CHECK(r["etag"] == true);
  CHECK(r["range"] == json({206, "bytes 9437179-9437188/31457280", true}));
  CHECK(r["past_end"]["Status"] == 416);  // cpp-httplib refuses it before the route (not S3's InvalidRange body)
  CHECK(r["record_bytes"].get<int>() < 1000);  // ids, sizes, ETag: not the body
  CHECK(r["blob_bytes"] == 30 << 20);
  CHECK(r["blobs"] == json({4, 30}));  // one blob per part, in chunks of 1 MiB
  const long peak = PeakRssMiB(s.pid());
  INFO("serve's peak RSS: " << peak << " MiB");
  CHECK(peak < 150);  // the body is never held whole (nor twice, as a Lua string and its JSON)
}

TEST_CASE("multipart upload errors are S3's, and an aborted upload's parts are freed", "[server][aws][s3]") {
  Server s("s3_multipart_errors");
  json r = s.Python(Prelude(s) + R"(
s3.create_bucket(Bucket='mpu')
big = b'x' * (5 << 20)
up = s3.create_multipart_upload(Bucket='mpu', Key='k')['UploadId']
small = s3.upload_part(Bucket='mpu', Key='k', UploadId=up, PartNumber=1, Body=b'tiny')['ETag']
last = s3.upload_part(Bucket='mpu', Key='k', UploadId=up, PartNumber=2, Body=b'end')['ETag']
out = {'too_small': error(s3.complete_multipart_upload, Bucket='mpu', Key='k', UploadId=up,
                          MultipartUpload={'Parts': [{'PartNumber': 1, 'ETag': small}, {'PartNumber': 2, 'ETag': last}]})}
first = s3.upload_part(Bucket='mpu', Key='k', UploadId=up, PartNumber=1, Body=big)['ETag']  # replaces part 1
out['replaced'] = blobs()
out['wrong_etag'] = error(s3.complete_multipart_upload, Bucket='mpu', Key='k', UploadId=up,
                          MultipartUpload={'Parts': [{'PartNumber': 1, 'ETag': small}, {'PartNumber': 2, 'ETag': last}]})
out['order'] = error(s3.complete_multipart_upload, Bucket='mpu', Key='k', UploadId=up,
                     MultipartUpload={'Parts': [{'PartNumber': 2, 'ETag': last}, {'PartNumber': 1, 'ETag': first}]})
s3.abort_multipart_upload(Bucket='mpu', Key='k', UploadId=up)
out['aborted'] = blobs()
out['no_upload'] = error(s3.complete_multipart_upload, Bucket='mpu', Key='k', UploadId=up,
                         MultipartUpload={'Parts': [{'PartNumber': 1, 'ETag': first}]})
out['no_upload_part'] = error(s3.upload_part, Bucket='mpu', Key='k', UploadId=up, PartNumber=1, Body=b'x')
out['after_failed_part'] = blobs()
print(json.dumps(out))
)");
  CHECK(r["too_small"] == json({{"Code", "EntityTooSmall"},
                                {"Message", "Your proposed upload is smaller than the minimum allowed size"},
                                {"Status", 400}}));
  CHECK(r["replaced"] == json({2, 6}));  // the 4-byte part 1 freed: 5 chunks of the new one, 1 of part 2
  CHECK(r["wrong_etag"]["Code"] == "InvalidPart");
  CHECK(r["wrong_etag"]["Message"] ==
        "One or more of the specified parts could not be found.  The part may not have been uploaded, or the "
        "specified entity tag may not have matched the part's entity tag.");
  CHECK(r["order"]["Code"] == "InvalidPartOrder");
  CHECK(r["aborted"] == json({0, 0}));
  CHECK(r["no_upload"] == json({{"Code", "NoSuchUpload"},
                                {"Message", "The specified upload does not exist. The upload ID may be invalid, or the "
                                            "upload may have been aborted or completed."},
                                {"Status", 404}}));
  CHECK(r["no_upload_part"]["Code"] == "NoSuchUpload");
  CHECK(r["after_failed_part"] == json({0, 0}));  // the refused part's blob was freed
}

TEST_CASE("an object's blobs are freed when it is deleted, overwritten, its bucket deleted or the server reset",
          "[server][aws][s3]") {
  Server s("s3_blob_lifecycle");
  json r = s.Python(Prelude(s) + R"(
import urllib.request
s3.create_bucket(Bucket='life')
body = os.urandom(3 << 20)
out = {}
s3.put_object(Bucket='life', Key='a', Body=body)
s3.put_object(Bucket='life', Key='b', Body=body)
out['two'] = blobs()
out['etag'] = s3.put_object(Bucket='life', Key='a', Body=b'small now')['ETag']  # S3's: the body's MD5
out['overwritten'] = blobs()
s3.delete_object(Bucket='life', Key='a')
out['deleted'] = blobs()
s3.delete_objects(Bucket='life', Delete={'Objects': [{'Key': 'b'}]})
out['batch_deleted'] = blobs()
up = s3.create_multipart_upload(Bucket='life', Key='p')['UploadId']
s3.upload_part(Bucket='life', Key='p', UploadId=up, PartNumber=1, Body=body)
s3.delete_bucket(Bucket='life')
out['bucket_deleted'] = blobs()
s3.create_bucket(Bucket='again')
s3.put_object(Bucket='again', Key='c', Body=body)
out['before_reset'] = blobs()
urllib.request.urlopen(urllib.request.Request('http://127.0.0.1:)" + std::to_string(s.port()) + R"(/moonstack/reset',
                                              method='POST')).read()
out['reset'] = blobs()
print(json.dumps(out))
)");
  CHECK(r["two"] == json({2, 6}));
  CHECK(r["etag"] == "\"" + std::string("ca4c5656585ea7d819dd84288e8ae2e5") + "\"");
  CHECK(r["overwritten"] == json({2, 4}));
  CHECK(r["deleted"] == json({1, 3}));
  CHECK(r["batch_deleted"] == json({0, 0}));
  CHECK(r["bucket_deleted"] == json({0, 0}));
  CHECK(r["before_reset"] == json({1, 3}));
  CHECK(r["reset"] == json({0, 0}));
}

}  // namespace
}  // namespace ms::test::server
