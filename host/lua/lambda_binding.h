// How the simulated Lambda (providers/sim/lambda_invoke.lua) runs a
// function's code, through the runner in host/lambda/. Installed with
// moonstack.world (world_binding.cc), so it is there wherever simulated
// actions run: provider sessions, `world call`, the server's runtimes.
//
// The module `moonstack.lambda`, for anyone:
//   enabled() -> bool           false under --no-lambda
//   runner()  -> the runner, for sim.lambda's Invoke only: called from
//                anywhere but providers/sim/lambda_invoke.lua it raises
//                kRunnerReservedMessage. Functions run through the simulated
//                Lambda service (its checks, its logs), never straight from a
//                provider. (`require("moonstack.lambda_runner")`, the old
//                name, raises the same: lua-sdk/moonstack/lambda_runner.lua.)
// The runner:
//   run{ function_name=, function_arn=, runtime=, handler=, region=,
//        timeout=, memory=, inline_code=, zip= | zip_blobs={id1, size1, ...}
//        (a package the store keeps as blobs, read outside the Lua state),
//        layers={ {zip=} or {zip_blobs=}, ... } (in the function's order),
//        environment={NAME=value},
//        event=<JSON text>, request_id=, log_stream_name=, last_modified=, endpoint_url=,
//        capture_response_url=bool }
//     -> { ran=bool, error=, payload=<JSON text>, function_error=bool,
//          timed_out=bool, log=, responses={<JSON text>...},
//          duration_ms=, handler_ms=, max_memory_mb=, cold_start=bool,
//          init_ms=, log_stream_name= (the execution environment's) }
//   timeout_message(seconds)    "Task timed out after 3.00 seconds"
//   decode_json(text)           -> value, or nil and why
//
// run() blocks for as long as the function runs (up to its Timeout, 900 s
// at most); that time is not the Lua call's: the call's deadline moves by
// it (limits.h ExtendDeadline). Call it without the world's lock held: the
// function's SDK calls may need the world (sim.lambda does).
#pragma once

struct lua_State;

namespace ms {
class World;
}

namespace ms::lua {

inline constexpr const char* kRunnerReservedMessage =
    "moonstack.lambda_runner is reserved to the simulated Lambda service: run a function through "
    "sim.lambda's Invoke (ctx.world.lambda.Invoke)";

// Sets package.loaded["moonstack.lambda"]; run reads zip_blobs through
// `world`'s blob source (nullptr: none). Protected mode.
void OpenLambdaRunner(lua_State* L, World* world);

}  // namespace ms::lua
