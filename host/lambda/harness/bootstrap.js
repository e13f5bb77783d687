// moonstack's runtime harness for Lambda's nodejs runtimes: runs ONE
// invocation in this process, as Lambda's runtime interface client would.
//
//   node bootstrap.js <spec.json>
//
// Same spec and result as bootstrap.py (see there). The handler may be
// async (a promise), take a callback (event, context, callback), or end the
// invocation through context.done/succeed/fail (what cfn-response calls).
'use strict';
const fs = require('fs');
const path = require('path');

const spec = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
let finished = false;
let capture = null;
let started = process.hrtime.bigint();  // reset when the handler is called: loading the code is init

function errorObject(err) {
  if (err instanceof Error) {
    return { errorType: err.name || 'Error', errorMessage: err.message,
             trace: String(err.stack || '').split('\n') };
  }
  return { errorType: 'string', errorMessage: typeof err === 'string' ? err : JSON.stringify(err), trace: [] };
}

function runtimeError(type, message) { return { errorType: type, errorMessage: message, trace: [] }; }

function finish(ok, payload) {
  if (finished) return;
  finished = true;
  if (!ok) {
    console.error(new Date().toISOString() + '\t' + spec.context.aws_request_id + '\tERROR\t' +
                  (payload.errorType === 'string' ? '' : payload.errorType + ': ') + payload.errorMessage);
  } else {
    try {
      payload = payload === undefined ? null : JSON.parse(JSON.stringify(payload));
    } catch (e) {
      ok = false;
      payload = runtimeError('Runtime.MarshalError', 'Unable to marshal response: ' + e.message);
    }
  }
  const handlerMs = Number(process.hrtime.bigint() - started) / 1e6;
  fs.writeFileSync(spec.result_path, JSON.stringify({ ok, payload, responses: capture ? capture.bodies : [],
                                                      handler_ms: handlerMs }));
  process.exit(0);
}

// A zip archive's files into `dir` (stored and deflated entries), with zlib:
// no unzip program or package needed.
function extractZip(file, dir) {
  const zlib = require('zlib');
  const buf = fs.readFileSync(file);
  let eocd = buf.length - 22;
  while (eocd >= 0 && buf.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  if (eocd < 0) throw new Error('not a zip archive');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  for (let i = 0; i < count; i++) {
    const method = buf.readUInt16LE(p + 10), size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28), extraLen = buf.readUInt16LE(p + 30), commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    p += 46 + nameLen + extraLen + commentLen;
    const target = path.resolve(dir, name);
    if (!target.startsWith(path.resolve(dir) + path.sep)) continue;  // no paths out of the task directory
    if (name.endsWith('/')) { fs.mkdirSync(target, { recursive: true }); continue; }
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(start, start + size);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, method === 8 ? zlib.inflateRawSync(data) : data);
  }
}

// Serves ResponseURL on 127.0.0.1 (embedded mode: nothing else listens for
// custom-resource responses); keeps each PUT's body.
function startCapture(done) {
  const http = require('http');
  const c = { bodies: [], url: '' };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (d) => chunks.push(d));
    req.on('end', () => {
      if (req.method === 'PUT') c.bodies.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(req.method === 'PUT' ? 200 : 405, { 'Content-Length': '0' });
      res.end();
    });
  });
  server.listen(0, '127.0.0.1', () => {
    c.url = 'http://127.0.0.1:' + server.address().port + '/cloudformation-custom-resource-response';
    server.unref();
    done(c);
  });
}

function makeContext() {
  const c = spec.context;
  return {
    functionName: c.function_name, functionVersion: c.function_version,
    invokedFunctionArn: c.invoked_function_arn, memoryLimitInMB: c.memory_limit_in_mb,
    awsRequestId: c.aws_request_id, logGroupName: c.log_group_name, logStreamName: c.log_stream_name,
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => Math.max(0, spec.deadline_epoch_ms - Date.now()),
    done: (err, result) => (err ? finish(false, errorObject(err)) : finish(true, result)),
    succeed: (result) => finish(true, result),
    fail: (err) => finish(false, errorObject(err)),
  };
}

function loadHandler() {
  const dot = spec.handler.lastIndexOf('.');
  if (dot < 0) return [null, runtimeError('Runtime.MalformedHandlerName', "Bad handler " + spec.handler)];
  const moduleName = spec.handler.slice(0, dot), fnName = spec.handler.slice(dot + 1);
  const base = path.join(spec.task_dir, moduleName);
  const file = ['.js', '.cjs', '.mjs'].map((e) => base + e).find((f) => fs.existsSync(f));
  if (!file) {
    return [null, runtimeError('Runtime.ImportModuleError',
      "Error: Cannot find module '" + moduleName + "'\nRequire stack:\n- " + __filename)];
  }
  let mod;
  try {
    mod = require(file);
  } catch (e) {
    return [null, e instanceof SyntaxError ? runtimeError('Runtime.UserCodeSyntaxError', e.name + ': ' + e.message)
                                          : errorObject(e)];
  }
  if (typeof mod[fnName] !== 'function') {
    return [null, runtimeError('Runtime.HandlerNotFound', moduleName + '.' + fnName + ' is undefined or not exported')];
  }
  return [mod[fnName], null];
}

function run() {
  const [fn, loadError] = loadHandler();
  if (!fn) return finish(false, loadError);
  const context = makeContext();
  const callback = (err, result) => (err ? finish(false, errorObject(err)) : finish(true, result));
  started = process.hrtime.bigint();
  try {
    const r = fn(spec.event, context, callback);
    if (r && typeof r.then === 'function') {
      r.then((v) => finish(true, v), (e) => finish(false, errorObject(e)));
    } else if (fn.length < 3 && r !== undefined) {
      finish(true, r);
    }
  } catch (e) {
    finish(false, errorObject(e));
  }
}

// A handler that neither returned nor called back, once nothing is left to
// do: Lambda's answer is null.
process.on('beforeExit', () => finish(true, null));

if (spec.zip) extractZip(spec.zip, spec.task_dir);
if (spec.capture_response_url && spec.event && typeof spec.event === 'object' && 'ResponseURL' in spec.event) {
  startCapture((c) => { capture = c; spec.event.ResponseURL = c.url; run(); });
} else {
  run();
}
