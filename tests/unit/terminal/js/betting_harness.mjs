// Runs scripted table and hand operations on rules/table.js and rules/betting.js.
//
// stdin: {"jobs": [[op, op, ...], ...]}; stdout: {"results": [[result, ...], ...]}, one
// result per op: {"ok": true, "value": ...} or {"ok": false, "error": {code, rule, ...}}.
// An op that fails leaves the table and the hand as they were (the rules validate
// before they change anything), so a script goes on after an illegal action.
//
// ops: {op: "table", args} tableState(args, current state if "keep")
//      {op: "seat"|"leave"|"away"|"stack", ...}     the table helpers
//      {op: "plan", options}                        planHand(state, options)
//      {op: "hand", args}                           new Hand({plan, ...args})
//      {op: "act", seat, type, to} (type "cc": check or call) / {op: "deal", cards}
//      {op: "run2"}
//      {op: "show", seat, cards} / {op: "muck", seat} / {op: "undo"}
//      {op: "look"}                                 toAct, options, needs, street, pot, seats
//      {op: "json"}                                 the hand through toJSON / fromJSON
//      {op: "record", endedAt}                      hand.record()
//      {op: "after", settlement}                    afterHand(state, plan, record, settlement)
//      {op: "state"}                                the table state
import { readFileSync } from "node:fs";

import { Hand, IllegalAction } from "../../../../terminal/static/terminal/js/rules/betting.js";
import {
  afterHand,
  leaveSeat,
  planHand,
  seatPlayer,
  setAway,
  setStack,
  tableState,
} from "../../../../terminal/static/terminal/js/rules/table.js";

function look(hand) {
  return {
    toAct: hand.toAct,
    options: hand.options(),
    needs: hand.needs(),
    street: hand.street,
    streetName: hand.streetName,
    over: hand.over,
    pot: hand.pot,
    currentBet: hand.currentBet,
    canRunTwice: hand.canRunTwice,
    board: hand.board,
    boards: hand.boards,
    seats: hand.seats,
    showOrder: hand.over || hand.needs()?.kind === "showdown" ? hand.showOrder() : null,
  };
}

function runJob(ops) {
  const ctx = { state: null, plan: null, hand: null, record: null };
  return ops.map((op) => {
    try {
      return { ok: true, value: step(ctx, op) ?? null };
    } catch (error) {
      if (!(error instanceof IllegalAction)) {
        return { ok: false, crash: `${error.name}: ${error.message}\n${error.stack}` };
      }
      return { ok: false, error: error.toJSON() };
    }
  });
}

function step(ctx, op) {
  switch (op.op) {
    case "table":
      ctx.state = tableState(op.args, op.keep ? ctx.state : null);
      return ctx.state;
    case "seat":
      ctx.state = seatPlayer(ctx.state, op);
      return ctx.state;
    case "leave":
      ctx.state = leaveSeat(ctx.state, op.seat);
      return ctx.state;
    case "away":
      ctx.state = setAway(ctx.state, op.seat, op.away);
      return ctx.state;
    case "stack":
      ctx.state = setStack(ctx.state, op.seat, op.stack);
      return ctx.state;
    case "state":
      return ctx.state;
    case "plan": {
      const before = JSON.stringify(ctx.state);
      ctx.plan = planHand(ctx.state, op.options);
      if (JSON.stringify(ctx.state) !== before) throw new Error("planHand changed its state");
      return ctx.plan;
    }
    case "hand":
      ctx.hand = new Hand({ plan: ctx.plan, ...(op.args || {}) });
      return look(ctx.hand);
    case "act": {
      const before = JSON.stringify(ctx.hand.toJSON());
      // "cc" (a PHH history's check-or-call) is whichever the seat may do.
      const type = op.type === "cc" ? (ctx.hand.options()?.call ? "call" : "check") : op.type;
      try {
        ctx.hand.act(op.seat, { type, to: op.to });
      } catch (error) {
        if (JSON.stringify(ctx.hand.toJSON()) !== before) {
          throw new Error("a refused action changed the hand");
        }
        throw error;
      }
      return look(ctx.hand);
    }
    case "deal":
      ctx.hand.deal(op.cards);
      return look(ctx.hand);
    case "run2":
      ctx.hand.runTwice();
      return look(ctx.hand);
    case "show":
      ctx.hand.show(op.seat, op.cards);
      return look(ctx.hand);
    case "muck":
      ctx.hand.muck(op.seat);
      return look(ctx.hand);
    case "undo":
      ctx.hand.undo();
      return look(ctx.hand);
    case "look":
      return look(ctx.hand);
    case "json":
      ctx.hand = Hand.fromJSON(JSON.parse(JSON.stringify(ctx.hand.toJSON())));
      return look(ctx.hand);
    case "record":
      ctx.record = ctx.hand.record({ endedAt: op.endedAt ?? null });
      return ctx.record;
    case "after": {
      const before = JSON.stringify(ctx.state);
      const next = afterHand(ctx.state, ctx.plan, ctx.record, op.settlement ?? null);
      if (JSON.stringify(ctx.state) !== before) throw new Error("afterHand changed its state");
      ctx.state = next;
      return ctx.state;
    }
    default:
      throw new Error(`unknown op ${op.op}`);
  }
}

const input = JSON.parse(readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify({ results: input.jobs.map(runJob) }));
