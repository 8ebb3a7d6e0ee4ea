// Settle hand records with the terminal's rules (terminal/static/terminal/js/rules/
// settle.js) for tests/unit/terminal/test_settle_js.py, which settles the same
// records with the Python engine and compares.
//
// Reads JSON lines from standard input and answers each with one JSON line, in order:
//   {"record": …, "policy": …}          -> {"settlement": …} or {"error": {code, rule,
//                                          detail, allowed}} (SettleError), or
//                                          {"crash": "…"} for any other exception
//   … with "undefined": [keys]          -> the same, those keys of the record (and of
//                                          each seat) set to undefined first, as an
//                                          object built in the browser may have them
//   {"describe": [game, cards, board]}  -> {"name": … | null}
//   {"stats": true}                     -> {"hands": n, "total_ms": …, "max_ms": …}
// Each answer is written as soon as its line is read, so a test may keep one process
// and ask it hand by hand.

import { createInterface } from "node:readline";
import { performance } from "node:perf_hooks";

import { SettleError, describe, settle } from "../../../../terminal/static/terminal/js/rules/settle.js";

let hands = 0;
let total = 0;
let slowest = 0;

function answer(request) {
  if (request.stats) {
    return { hands, total_ms: total, max_ms: slowest };
  }
  if (request.describe) {
    const [game, cards, board] = request.describe;
    return { name: describe(game, cards, board) };
  }
  for (const key of request.undefined || []) {
    request.record[key] = undefined;
    for (const seat of request.record.seats || []) seat[key] = undefined;
  }
  const started = performance.now();
  try {
    return { settlement: settle(request.record, request.policy) };
  } catch (error) {
    if (error instanceof SettleError) return error.toJSON();
    return { crash: `${error && error.stack ? error.stack : error}` };
  } finally {
    const took = performance.now() - started;
    hands += 1;
    total += took;
    slowest = Math.max(slowest, took);
  }
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  process.stdout.write(JSON.stringify(answer(JSON.parse(line))) + "\n");
}
