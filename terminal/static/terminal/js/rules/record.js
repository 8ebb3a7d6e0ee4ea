// The hand record and the policy of API.md, checked as cardroom.domain.hand_record
// checks them: the same refusals (code, rule, allowed) in the same order, so that a
// record the server would refuse is refused at the table too.

import { CARD_IDS, CARD_NAMES, RANKS, SUITS } from "./cards.js";
import { refuse } from "./errors.js";
import { GAMES, gameOf } from "./games.js";
import { parseDecimal } from "./money.js";

/** HS1: at most 12 players at a table; seats are numbered 1 … 12. */
export const MAX_SEATS = 12;

const SEAT_FIELDS = ["seat", "player", "stack", "present", "put_in", "folded"];

/** A JSON object (Python's Mapping). */
export function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * A whole number as the Python engine's ``type(x) is int``. JS numbers are exact
 * only up to 2**53: larger ones are refused here as not whole (the server would
 * take them; no table has such amounts).
 */
export function isInt(value) {
  return Number.isSafeInteger(value);
}

/**
 * Whether ``mapping`` has ``key``. A key whose value is undefined is not there: a
 * record built in the browser is sent as JSON, which leaves such a key out.
 */
function has(mapping, key) {
  return Object.hasOwn(mapping, key) && mapping[key] !== undefined;
}

/** ``mapping.get(key, fallback)``: the value when the key is there, null or not. */
function get(mapping, key, fallback = null) {
  return has(mapping, key) ? mapping[key] : fallback;
}

/** Python's truth of a decoded JSON value. */
function truthy(value) {
  if (value === null || value === undefined || value === false || value === 0 || value === "") {
    return false;
  }
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object") return Object.keys(value).length > 0;
  return true;
}

/** A missing key (Python's KeyError), turned into a refusal by the caller. */
class Missing {
  constructor(field) {
    this.field = field;
  }
}

function need(mapping, key) {
  if (!has(mapping, key)) throw new Missing(key);
  return mapping[key];
}

/**
 * Return ``value``, a whole number of at least ``minimum``; else throw ``code``'s
 * refusal (``negative_amount`` below 0) naming ``field`` (of ``seat``).
 */
function whole(value, field, minimum = 0, code = "malformed_hand", seat = null) {
  if (!isInt(value)) {
    if (seat !== null) throw refuse(code, "seat_whole", { seat, field, value });
    throw refuse(code, "whole", { field, value });
  }
  if (value < minimum) {
    let refused = code;
    let variant = "at_least";
    if (!minimum) [refused, variant] = ["negative_amount", null];
    if (seat !== null) [refused, variant] = ["negative_amount", "seat"];
    const params = { allowed: { min: minimum }, field, minimum, value };
    if (seat !== null) params.seat = seat;
    throw refuse(refused, variant, params);
  }
  return value;
}

// -- policy -------------------------------------------------------------------------

/**
 * Return the checked policy of a decoded policy (API.md "Policy"):
 * ``{currency, chip, rake: {scheme, step, unit, cap, percent, capsByPlayers, minPot},
 * drop: {amount, minParticipants, minPot} | null, firstRunOnly}``. Throws
 * SettleError ``invalid_policy`` for a missing or wrong field, an unknown rake
 * scheme or a percentage outside 0-100.
 */
export function parsePolicy(data) {
  const policy = "invalid_policy";
  if (!isObject(data)) throw refuse(policy);
  try {
    const chip = whole(need(data, "smallest_chip"), "smallest_chip", 1, policy);
    const currency = get(data, "currency", "");
    if (typeof currency !== "string") throw refuse(policy, "currency");
    const rake = parseRake(need(data, "rake"), chip);
    const dropData = get(data, "jackpot_drop");
    let drop = null;
    if (dropData !== null) {
      if (!isObject(dropData)) throw refuse(policy, "drop");
      drop = {
        amount: whole(need(dropData, "amount"), "jackpot_drop.amount", 0, policy),
        minParticipants: whole(
          need(dropData, "min_participants"), "jackpot_drop.min_participants", 0, policy,
        ),
        minPot: whole(get(dropData, "min_pot", 0), "jackpot_drop.min_pot", 0, policy),
      };
    }
    const firstRunOnly = get(data, "jackpots_first_run_only", true);
    if (firstRunOnly !== true && firstRunOnly !== false) throw refuse(policy, "first_run_only");
    return { currency, chip, rake, drop, firstRunOnly };
  } catch (error) {
    if (error instanceof Missing) throw refuse(policy, "missing", { field: error.field });
    if (error.code === "negative_amount") error.code = policy;
    throw error;
  }
}

function noRake(scheme) {
  return { scheme, step: 1, unit: 0, cap: null, percent: null, capsByPlayers: [], minPot: 0 };
}

function parseRake(data, chip) {
  const policy = "invalid_policy";
  if (!isObject(data)) throw refuse(policy, "rake");
  const scheme = get(data, "scheme");
  let cap = get(data, "cap");
  if (cap !== null) cap = whole(cap, "rake.cap", 0, policy);
  const capsByPlayers = parseCaps(get(data, "caps_by_players"));
  const minPot = whole(get(data, "min_pot", 0), "rake.min_pot", 0, policy);
  if (scheme === "pot_order") {
    const step = whole(need(data, "step"), "rake.step", 1, policy);
    const unit = whole(need(data, "unit"), "rake.unit", 1, policy);
    if (unit > step) {
      // More than a step's worth per step could rake more than the pots.
      throw refuse(policy, "unit_above_step", { rule: "RK1", allowed: { max: step }, unit, step });
    }
    return { scheme, step, unit, cap, percent: null, capsByPlayers, minPot };
  }
  if (scheme === "percent") {
    const raw = need(data, "percent");
    if (typeof raw !== "string" && !isInt(raw)) throw refuse(policy, "percent_text");
    const percent = parseDecimal(raw);
    if (percent === null) throw refuse(policy, "percent_number", { percent: raw });
    if (!percent.finite || percent.sign < 0 || percent.above100) {
      throw refuse(policy, "percent_range", { allowed: { min: 0, max: 100 }, percent: raw });
    }
    if (percent.sign === 0) return { ...noRake("percent"), cap };
    // RK7: the percentage rounded down to the smallest chip is RK1 with the chip as
    // the unit and, as the step, what earns one chip: chip * 100 / percent.
    return { scheme, step: null, unit: chip, cap, percent, capsByPlayers, minPot };
  }
  if (scheme === "time" || scheme === "none") return noRake(scheme);
  throw refuse(policy, "scheme", {
    rule: "RK7",
    allowed: { schemes: ["pot_order", "percent", "time", "none"] },
    scheme,
  });
}

/** Return RK7's caps by number of players, ``[minPlayers, cap]`` by ascending players. */
function parseCaps(raw) {
  const policy = "invalid_policy";
  if (raw === null) return [];
  if (!Array.isArray(raw)) throw refuse(policy, "caps");
  const caps = new Map();
  for (const item of raw) {
    if (!isObject(item) || !has(item, "min_players") || !has(item, "cap")) {
      throw refuse(policy, "cap_entry");
    }
    const players = whole(item.min_players, "rake.caps_by_players.min_players", 2, policy);
    if (players > MAX_SEATS || caps.has(players)) {
      throw refuse(policy, "cap_players", {
        rule: "RK7", allowed: { min: 2, max: MAX_SEATS }, players,
      });
    }
    caps.set(players, whole(item.cap, "rake.caps_by_players.cap", 0, policy));
  }
  return [...caps.entries()].sort((a, b) => a[0] - b[0]);
}

// -- hand ---------------------------------------------------------------------------

/**
 * Return the checked hand record of a decoded record (API.md "Hand record"):
 * ``{table, handNo, game, button, streets, board, boards, seats, awarded}`` with card
 * ids for cards and seats ``{seat, player, stack, present, putIn, folded, cards,
 * dead, straddle, mucked}``. Throws SettleError as the Python engine's parse_hand
 * refuses: ``malformed_hand``, ``unknown_game``, ``invalid_streets``,
 * ``too_many_seats`` (HS1), ``too_few_seats``, ``duplicate_seat``,
 * ``invalid_button``, ``negative_amount``, ``put_in_above_stack`` (BI3),
 * ``malformed_card``, ``wrong_card_count`` (HS9), ``duplicate_card`` (RK8),
 * ``no_contender`` (HS3), ``invalid_awarded``, ``dead_above_put_in`` (HS2),
 * ``mucked_and_folded`` (HS3), ``invalid_boards`` (HS10).
 */
export function parseHand(data) {
  if (!isObject(data)) throw refuse("malformed_hand");
  let table, handNo, code, streets, seatsData;
  try {
    table = need(data, "table");
    handNo = need(data, "hand_no");
    code = need(data, "game");
    streets = need(data, "streets");
    seatsData = need(data, "seats");
  } catch (error) {
    if (error instanceof Missing) throw refuse("malformed_hand", "missing", { field: error.field });
    throw error;
  }
  if (typeof table !== "string" || !table) throw refuse("malformed_hand", "table", { table });
  if (!isInt(handNo) || handNo < 0) throw refuse("malformed_hand", "hand_no", { hand_no: handNo });
  const game = gameOf(code);
  if (game === null) {
    throw refuse("unknown_game", null, { rule: "HS9", allowed: { games: Object.keys(GAMES) }, game: code });
  }
  if (!isInt(streets) || streets < 1 || streets > game.streets) {
    throw refuse("invalid_streets", null, {
      allowed: { min: 1, max: game.streets }, last: game.streets, game: game.code, streets,
    });
  }
  const button = parseButton(get(data, "button"), game);
  const [board, boards] = parseRuns(get(data, "board"), get(data, "boards"), game, streets);
  const bombPot = get(data, "bomb_pot");
  if (bombPot !== null && typeof bombPot !== "boolean") {
    throw refuse("malformed_hand", "bomb_pot", { value: bombPot });
  }
  let bringIn = get(data, "bring_in");
  bringIn = truthy(bringIn) ? bringIn : 0;
  if (bringIn) {
    bringIn = whole(bringIn, "bring_in");
    if (!game.isStud) throw refuse("malformed_hand", "bring_in", { game: game.code });
  }
  checkSeatCount(seatsData);
  const seen = [...board]; // every card dealt, for RK8
  for (const run of boards.slice(1)) seen.push(...run.slice(commonPrefix(run, board)));
  const { seats, numbers, anyoneIn } = parseSeats(seatsData, game, streets, seen);
  if (new Set(seen).size !== seen.length) refuseDuplicates(seen);
  if (!anyoneIn) throw refuse("no_contender", null, { rule: "HS3" });
  const awarded = parseAwarded(get(data, "awarded"), numbers);
  for (const field of ["started_at", "ended_at"]) {
    const value = get(data, field);
    if (value !== null && typeof value !== "string") {
      throw refuse("malformed_hand", "time", { field, value });
    }
  }
  return { table, handNo, game, button, streets, board, boards, seats, awarded, bringIn };
}

function parseButton(button, game) {
  // Stud games have no button (HS5 gives their odd chip by the cards).
  if (button === null && game.isStud) return null;
  if (!isInt(button) || button < 1 || button > MAX_SEATS) {
    throw refuse("invalid_button", null, {
      rule: "HS5", allowed: { min: 1, max: MAX_SEATS }, max: MAX_SEATS, button,
    });
  }
  return button;
}

/** Return the card ids of a list of card names; throw ``malformed_card`` for one that isn't. */
export function parseCards(texts) {
  const ids = [];
  for (const text of texts) {
    const id = typeof text === "string" ? CARD_IDS.get(text) : undefined;
    if (id === undefined) {
      throw refuse("malformed_card", null, {
        allowed: { ranks: RANKS, suits: SUITS }, card: text, ranks: RANKS, suits: SUITS,
      });
    }
    ids.push(id);
  }
  return ids;
}

function parseBoard(raw, game, streets) {
  if (!Array.isArray(raw)) throw refuse("malformed_hand", "board", { board: raw });
  const board = parseCards(raw);
  const expected = game.boardCards[streets - 1];
  if (board.length !== expected) {
    throw refuse("wrong_card_count", null, {
      rule: "HS9", allowed: { board: expected }, game: game.code, streets, expected,
      count: board.length,
    });
  }
  return board;
}

/** Return the board and, for a pot run more than once, every run's board (HS10). */
function parseRuns(rawBoard, rawBoards, game, streets) {
  if (rawBoard === null) {
    rawBoard = Array.isArray(rawBoards) && rawBoards.length ? rawBoards[0] : [];
  }
  const board = parseBoard(rawBoard, game, streets);
  if (rawBoards === null) return [board, []];
  if (!Array.isArray(rawBoards) || !rawBoards.length) throw refuse("malformed_hand", "boards");
  if (game.isStud) throw refuse("invalid_boards", "stud", { rule: "HS10", game: game.code });
  const full = game.boardCards[game.boardCards.length - 1];
  if (rawBoards.length > 1 && streets !== game.streets) {
    throw refuse("invalid_boards", "to_the_end", { rule: "HS10", allowed: { board: full }, cards: full });
  }
  const runs = rawBoards.map((run) => parseBoard(run, game, streets));
  if (!sameCards(runs[0], board)) throw refuse("invalid_boards", null, { rule: "HS10" });
  runs.slice(1).forEach((run, i) => {
    if (sameCards(run, board)) throw refuse("invalid_boards", "same_run", { rule: "HS10", run: i + 2 });
  });
  return [board, runs.length > 1 ? runs : []];
}

function sameCards(a, b) {
  return a.length === b.length && a.every((card, i) => card === b[i]);
}

/** Return how many cards a run shares with the first run's board, from the start. */
function commonPrefix(run, first) {
  let n = 0;
  while (n < run.length && n < first.length && run[n] === first[n]) n++;
  return n;
}

function checkSeatCount(seatsData) {
  if (!Array.isArray(seatsData)) throw refuse("malformed_hand", "seats");
  if (seatsData.length > MAX_SEATS) {
    throw refuse("too_many_seats", null, {
      rule: "HS1", allowed: { max: MAX_SEATS }, count: seatsData.length, max: MAX_SEATS,
    });
  }
  if (seatsData.length < 2) throw refuse("too_few_seats", null, { allowed: { min: 2 } });
}

function isBool(value) {
  return value === true || value === false;
}

function parseSeats(seatsData, game, streets, seen) {
  const cardsInPlay = game.holeCards || game.seatCards[streets - 1];
  const numbers = new Set();
  const seats = [];
  let anyoneIn = false;
  for (const row of seatsData) {
    if (!isObject(row) || SEAT_FIELDS.some((field) => !has(row, field))) {
      throw seatError(row, game, streets);
    }
    const { seat: number, player, stack, present, put_in: putIn, folded } = row;
    if (
      !(isInt(number) && number > 0 && number <= MAX_SEATS && typeof player === "string" && player &&
        isInt(stack) && isInt(putIn) && putIn >= 0 && putIn <= stack && isBool(present) && isBool(folded))
    ) {
      throw seatError(row, game, streets);
    }
    const dead = get(row, "dead", 0);
    const straddle = get(row, "straddle", 0);
    const mucked = get(row, "mucked", false);
    if (
      !(isInt(dead) && isInt(straddle) && dead >= 0 && straddle >= 0 && dead + straddle <= putIn &&
        (mucked === false || (mucked === true && folded === false)))
    ) {
      throw seatError(row, game, streets);
    }
    if (numbers.has(number)) throw refuse("duplicate_seat", null, { seat: number });
    numbers.add(number);
    const raw = get(row, "cards");
    let cards = null;
    if (raw !== null) {
      if (!Array.isArray(raw)) throw refuse("malformed_hand", "seat_cards", { seat: number });
      cards = parseCards(raw);
      if (cards.length !== cardsInPlay) checkSeatCards(number, cards, folded, game, streets);
      seen.push(...cards);
    }
    if (!folded && !mucked) anyoneIn = true;
    seats.push({ seat: number, player, stack, present, putIn, folded, cards, dead, straddle, mucked });
  }
  return { seats, numbers, anyoneIn };
}

/** Return the refusal that says what is wrong with a seat the fast check refused. */
function seatError(data, game, streets) {
  const malformed = "malformed_hand";
  if (!isObject(data)) return refuse(malformed, "seat", { seat: data });
  for (const field of SEAT_FIELDS) {
    if (!has(data, field)) return refuse(malformed, "seat_missing", { field });
  }
  const { seat: number, player, stack, put_in: putIn } = data;
  if (!isInt(number) || number < 1 || number > MAX_SEATS) {
    return refuse("too_many_seats", "number", {
      rule: "HS1", allowed: { min: 1, max: MAX_SEATS }, max: MAX_SEATS, seat: number,
    });
  }
  if (typeof player !== "string" || !player) {
    return refuse(malformed, "player", { seat: number, player });
  }
  try {
    whole(stack, "stack", 0, malformed, number);
    whole(putIn, "put_in", 0, malformed, number);
  } catch (error) {
    return error;
  }
  if (putIn > stack) {
    return refuse("put_in_above_stack", null, {
      rule: "BI3", allowed: { max: stack }, seat: number, put_in: putIn, stack,
    });
  }
  for (const field of ["present", "folded"]) {
    if (!isBool(data[field])) return refuse(malformed, "true_or_false", { seat: number, field });
  }
  for (const field of ["dead", "straddle"]) {
    try {
      whole(get(data, field, 0), field, 0, malformed, number);
    } catch (error) {
      return error;
    }
  }
  const dead = get(data, "dead", 0);
  const straddle = get(data, "straddle", 0);
  if (dead + straddle > putIn) {
    return refuse("dead_above_put_in", null, {
      rule: "HS2", allowed: { max: putIn }, seat: number, dead, straddle, put_in: putIn,
    });
  }
  const mucked = get(data, "mucked", false);
  if (!isBool(mucked)) return refuse(malformed, "true_or_false", { seat: number, field: "mucked" });
  if (mucked && data.folded) return refuse("mucked_and_folded", null, { rule: "HS3", seat: number });
  return refuse(malformed, "invalid_seat", { seat: number });
}

/**
 * Refuse a seat's tabled cards that the game and street can't have dealt (HS9):
 * board games deal every hole card at once; in stud a seat still in holds the
 * street's count, one that folded what he had been dealt when he folded.
 */
function checkSeatCards(number, cards, folded, game, streets) {
  const n = cards.length;
  let low;
  let high;
  if (game.holeCards !== null) {
    low = high = game.holeCards;
  } else {
    high = game.seatCards[streets - 1];
    low = folded ? game.seatCards[0] : high;
  }
  if (n < low || n > high) {
    throw refuse("wrong_card_count", "seat", {
      rule: "HS9", allowed: { min: low, max: high }, seat: number, count: n, game: game.code,
      streets, expected: low === high ? String(high) : `${low} … ${high}`,
    });
  }
}

function refuseDuplicates(seen) {
  const counts = new Map();
  for (const card of seen) counts.set(card, (counts.get(card) || 0) + 1);
  const twice = [...counts].filter(([, n]) => n > 1).map(([card]) => CARD_NAMES[card]).sort();
  throw refuse("duplicate_card", null, { rule: "RK8", cards: twice.join(", ") });
}

function parseAwarded(raw, seats) {
  if (raw === null) return null;
  if (!Array.isArray(raw)) throw refuse("malformed_hand", "awarded");
  const pushes = new Map();
  for (const item of raw) {
    if (!isObject(item) || !has(item, "seat") || !has(item, "amount")) {
      throw refuse("malformed_hand", "awarded_entry");
    }
    const amount = whole(item.amount, "awarded amount");
    const seat = item.seat;
    if (!isInt(seat) || !seats.has(seat) || pushes.has(seat)) {
      throw refuse("invalid_awarded", null, {
        allowed: { seats: [...seats].sort((a, b) => a - b) }, seat,
      });
    }
    pushes.set(seat, amount);
  }
  return pushes;
}
