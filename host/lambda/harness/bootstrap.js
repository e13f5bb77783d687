// moonstack's runtime harness for Lambda's nodejs runtimes: one warm
// execution environment, as Lambda's runtime interface client runs it. Init
// (extract the code, require the handler's module) runs once; then one
// invocation per request, module-level state kept between them.
//
//   node bootstrap.js <init.json>
//
// Same init file and protocol as bootstrap.py (see there): length-prefixed
// JSON requests on stdin, answers on fd 3, stdout/stderr the log. The
// handler may be async (a promise), take a callback (event, context,
// callback), or end the invocation through context.done/succeed/fail (what
// cfn-response calls). Between invocations the process blocks reading its
// next request: timers the handler left wait, as in Lambda's frozen
// environment.
'use strict';
const fs = require('fs');
const path = require('path');

const spec = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const REQUESTS = 0, ANSWERS = 3;
let request = null;   // the invocation in progress
let finished = true;  // no invocation in progress
let capture = null;
let started = process.hrtime.bigint();

function send(message) {
  const body = Buffer.from(JSON.stringify(message));
  const data = Buffer.alloc(4 + body.length);
  data.writeUInt32BE(body.length, 0);
  body.copy(data, 4);
  for (let off = 0; off < data.length;) off += fs.writeSync(ANSWERS, data, off, data.length - off);
}

function readExactly(n) {
  const buf = Buffer.alloc(n);
  for (let off = 0; off < n;) {
    let got;
    try {
      got = fs.readSync(REQUESTS, buf, off, n - off, null);
    } catch (e) {
      if (e.code === 'EAGAIN') { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5); continue; }
      throw e;
    }
    if (got === 0) return null;
    off += got;
  }
  return buf;
}

// The next request, or the end of the process at EOF: the host ended
// without stopping this environment (it would have killed it), and the
// environment's directory, the parent of this file's, goes with it.
function receive() {
  const head = readExactly(4);
  const body = head && readExactly(head.readUInt32BE(0));
  if (!body) {
    fs.rmSync(path.dirname(__dirname), { recursive: true, force: true });
    process.exit(0);
  }
  return JSON.parse(body.toString('utf8'));
}

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
    console.error(new Date().toISOString() + '\t' + request.context.aws_request_id + '\tERROR\t' +
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
  send({ ok, payload, responses: capture ? capture.bodies : [], handler_ms: handlerMs });
  if (capture) capture.server.close();
  capture = null;
  setImmediate(next);
}

// A zip archive's files into `dir` (stored and deflated entries), with zlib:
// no unzip program or package needed. A file keeps the permissions the
// archive records (a layer's bin/ tools stay executable, as on Lambda).
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
    const mode = (buf.readUInt32LE(p + 38) >>> 16) & 0o777;
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    p += 46 + nameLen + extraLen + commentLen;
    const target = path.resolve(dir, name);
    if (!target.startsWith(path.resolve(dir) + path.sep)) continue;  // no paths out of the task directory
    if (name.endsWith('/')) { fs.mkdirSync(target, { recursive: true }); continue; }
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(start, start + size);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, method === 8 ? zlib.inflateRawSync(data) : data);
    if (mode) fs.chmodSync(target, mode);
  }
}

// Serves ResponseURL on 127.0.0.1 (embedded mode: nothing else listens for
// custom-resource responses); keeps each PUT's body.
function startCapture(done) {
  const http = require('http');
  const c = { bodies: [], url: '', server: null };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (d) => chunks.push(d));
    req.on('end', () => {
      if (req.method === 'PUT') c.bodies.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(req.method === 'PUT' ? 200 : 405, { 'Content-Length': '0' });
      res.end();
    });
  });
  c.server = server;
  server.listen(0, '127.0.0.1', () => {
    c.url = 'http://127.0.0.1:' + server.address().port + '/cloudformation-custom-resource-response';
    server.unref();
    done(c);
  });
}

// Custom-resource responses over https. On AWS a ResponseURL is an https S3
// URL on port 443, and CDK's Provider framework PUTs to it with
// https.request({hostname, path}), dropping any port; moonstack's
// ResponseURLs are http://127.0.0.1:<port>/... (this harness's capture, or
// `moonstack serve`). So an https request without a port (or to 443) whose
// host and path are those of a ResponseURL an invocation of this environment
// received goes to that URL, over http: the request the function meant.
const responseUrls = new Map();  // "<host> <path>" -> URL

function rememberResponseUrl(text) {
  let u;
  try { u = new URL(String(text)); } catch (e) { return; }
  if (u.protocol === 'http:') responseUrls.set(u.hostname + ' ' + u.pathname, u);
}

function routeResponseUrlsOverHttp() {
  const https = require('https'), http = require('http');
  const original = https.request;
  https.request = function request(options, ...rest) {
    if (options && typeof options === 'object' && !(options instanceof URL) &&
        (options.port === undefined || options.port === null || Number(options.port) === 443)) {
      const host = options.hostname || String(options.host || '').replace(/:443$/, '');
      const target = responseUrls.get(host + ' ' + String(options.path || '/').split('?')[0]);
      if (target) {
        const { agent, ...rest0 } = options;
        return http.request({ ...rest0, protocol: 'http:', hostname: target.hostname, port: target.port }, ...rest);
      }
    }
    return original.call(this, options, ...rest);
  };
}

function makeContext() {
  const c = request.context;
  return {
    functionName: c.function_name, functionVersion: c.function_version,
    invokedFunctionArn: c.invoked_function_arn, memoryLimitInMB: c.memory_limit_in_mb,
    awsRequestId: c.aws_request_id, logGroupName: c.log_group_name, logStreamName: c.log_stream_name,
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: ((deadline) => () => Math.max(0, deadline - Date.now()))(request.deadline_epoch_ms),
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

function run(fn) {
  const context = makeContext();
  const callback = (err, result) => (err ? finish(false, errorObject(err)) : finish(true, result));
  started = process.hrtime.bigint();
  try {
    const r = fn(request.event, context, callback);
    if (r && typeof r.then === 'function') {
      r.then((v) => finish(true, v), (e) => finish(false, errorObject(e)));
    } else if (fn.length < 3 && r !== undefined) {
      finish(true, r);
    }
  } catch (e) {
    finish(false, errorObject(e));
  }
}

let handler = null;

// Waits for the next request and runs it.
function next() {
  request = receive();
  finished = false;
  const ev = request.event;
  // A capture also without a ResponseURL in the event: the Provider
  // framework's onTimeout finds its request's ResponseURL (a capture of an
  // earlier invocation) inside the Step Functions error's Cause, and PUTs
  // to it without its port, so to this capture (routeResponseUrlsOverHttp).
  if (request.capture_response_url && ev && typeof ev === 'object') {
    startCapture((c) => {
      capture = c;
      if ('ResponseURL' in ev) ev.ResponseURL = c.url;
      rememberResponseUrl(c.url);
      run(handler);
    });
  } else {
    if (ev && typeof ev === 'object' && 'ResponseURL' in ev) rememberResponseUrl(ev.ResponseURL);
    run(handler);
  }
}

// A handler that neither returned nor called back, once nothing is left to
// do: Lambda's answer is null.
process.on('beforeExit', () => finish(true, null));

// Init, once: then the invocations, one per request. (Unlike bootstrap.py,
// node cannot move fd 3 out of reach of the function's subprocesses.)
routeResponseUrlsOverHttp();
if (spec.zip) extractZip(spec.zip, spec.task_dir);
// The layers into opt/ (Lambda's /opt), a later one's files over an earlier
// one's; NODE_PATH already names opt/nodejs/node_modules (runner.cc).
for (const layer of spec.layers || []) extractZip(layer, spec.opt_dir);
const [fn, loadError] = loadHandler();
if (loadError) console.error(loadError.errorType + ': ' + loadError.errorMessage);
send({ ready: true, error: loadError });
if (!fn) process.exit(0);
handler = fn;
next();
