// Cards as small integers, as cardroom.domain.cards numbers them (API.md "Conventions").
//
// A card is rank * 4 + suit with ranks 2 = 0 … A = 12 and suits c = 0, d = 1, h = 2,
// s = 3; so a card id orders cards by rank, then by suit ♠ > ♥ > ♦ > ♣, the order
// HS5 uses to give a stud game's odd chip.

export const RANKS = "23456789TJQKA";
export const SUITS = "cdhs";

export const RANK_NAMES = [
  "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
  "jack", "queen", "king", "ace",
];
export const RANK_PLURALS = [
  "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
  "jacks", "queens", "kings", "aces",
];

/** The 52 card names by id: CARD_NAMES[51] === "As". */
export const CARD_NAMES = Object.freeze(
  Array.from({ length: 52 }, (_, id) => RANKS[id >> 2] + SUITS[id & 3]),
);

/** Card name -> id; a Map, so that no name of Object's own ("__proto__") is a card. */
export const CARD_IDS = new Map(CARD_NAMES.map((name, id) => [name, id]));

/** Return the id of a card name such as "Ah", or undefined for anything else. */
export function cardId(text) {
  return typeof text === "string" ? CARD_IDS.get(text) : undefined;
}

/** Return the two-character name of a card id. */
export function cardName(id) {
  return CARD_NAMES[id];
}

/** Return the rank of a card id: 0 for a deuce … 12 for an ace. */
export function rankOf(id) {
  return id >> 2;
}

/** Return the suit of a card id: 0 clubs, 1 diamonds, 2 hearts, 3 spades. */
export function suitOf(id) {
  return id & 3;
}
