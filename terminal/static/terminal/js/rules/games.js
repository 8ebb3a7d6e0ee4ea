// The games of API.md: how each deals, ranks and splits (RULES.md HS9, RK4, HS5),
// as cardroom.domain.games has them.

import {
  describeHigh,
  describeLow,
  describeRazz,
  describeSoko,
  highAny,
  highOmaha,
  lowAny,
  lowOmaha,
  razzAny,
  sokoFive,
} from "./rank.js";

/** High hands, best five of all cards (Hold'em, stud). */
export const HIGH_ANY = Object.freeze({ name: "high", best: highAny, describe: describeHigh });
/** High hands, exactly two hole cards and three board cards (Omaha, Courchevel). */
export const HIGH_OMAHA = Object.freeze({ name: "high", best: highOmaha, describe: describeHigh });
/** Eight-or-better low of any five cards (stud hi-lo); null without a low. */
export const LOW_ANY = Object.freeze({ name: "low", best: lowAny, describe: describeLow });
/** Eight-or-better low of two hole and three board cards (Omaha hi-lo). */
export const LOW_OMAHA = Object.freeze({ name: "low", best: lowOmaha, describe: describeLow });
/** Ace-to-five low, pairs counting (razz). */
export const RAZZ = Object.freeze({ name: "razz", best: razzAny, describe: describeRazz });
/** Sökö: a seat's five cards, four flush and four straight included. */
export const SOKO = Object.freeze({
  name: "high",
  best: (hole, board = []) => sokoFive(board.length ? hole.concat(board) : hole),
  describe: describeSoko,
});

function boardGame(code, name, hole, selection, high, low = null, board = [0, 3, 4, 5]) {
  return Object.freeze({
    code, name, streets: 4, holeCards: hole, seatCards: [hole, hole, hole, hole],
    boardCards: board, selection, high, low, oddChip: "button", isStud: false,
    lowOddChip: "button",
  });
}

function studGame(code, name, seatCards, high, low = null, oddChip = "high_card") {
  return Object.freeze({
    code, name, streets: seatCards.length, holeCards: null, seatCards,
    boardCards: seatCards.map(() => 0), selection: "any", high, low, oddChip,
    isStud: true,
    // HS5: in stud hi-lo the low half's odd chip goes by the lowest card.
    lowOddChip: "low_card",
  });
}

/** Every game by code, in the Python engine's order (its refusals list them so). */
export const GAMES = Object.freeze(
  Object.fromEntries(
    [
      boardGame("NLHE", "No-limit Hold'em", 2, "any", HIGH_ANY),
      boardGame("PLHE", "Pot-limit Hold'em", 2, "any", HIGH_ANY),
      boardGame("LHE", "Limit Hold'em", 2, "any", HIGH_ANY),
      boardGame("PLO", "Pot-limit Omaha", 4, "omaha", HIGH_OMAHA),
      boardGame("PLO5", "Five-card pot-limit Omaha", 5, "omaha", HIGH_OMAHA),
      boardGame("COURCHEVEL", "Courchevel", 5, "omaha", HIGH_OMAHA, null, [1, 3, 4, 5]),
      boardGame("PLO8", "Omaha hi-lo", 4, "omaha", HIGH_OMAHA, LOW_OMAHA),
      studGame("STUD", "Seven-card stud", [3, 4, 5, 6, 7], HIGH_ANY),
      studGame("PLSTUD", "Pot-limit seven-card stud", [3, 4, 5, 6, 7], HIGH_ANY),
      studGame("STUD8", "Stud hi-lo", [3, 4, 5, 6, 7], HIGH_ANY, LOW_ANY),
      studGame("RAZZ", "Razz", [3, 4, 5, 6, 7], RAZZ, null, "low_card"),
      studGame("SOKO", "Sökö", [2, 3, 4, 5], SOKO),
    ].map((game) => [game.code, game]),
  ),
);

/** Return the game of a code, or null for a code API.md doesn't list. */
export function gameOf(code) {
  return typeof code === "string" && Object.hasOwn(GAMES, code) ? GAMES[code] : null;
}

/**
 * Return whether a hand dealt to ``streets`` went past the initial deal (RK4, JD2):
 * Hold'em and Omaha preflop, stud's third street, Sökö's first two cards and
 * Courchevel's deal with its first board card are street 1.
 */
export function pastInitialDeal(streets) {
  return streets >= 2;
}
