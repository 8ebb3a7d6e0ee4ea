// Cards on the screen and the card picker: a rank x suit grid of large keys, the
// cards already in the hand greyed out. Cards are two characters, rank then suit.

import {button, h, sheet} from "./dom.js";
import {gettext, interpolate} from "./i18n.js";

export const RANKS = "AKQJT98765432";
export const SUITS = "shdc";
const SUIT_SIGNS = {s: "♠", h: "♥", d: "♦", c: "♣"};
const RANK_SIGNS = {T: "10"};

export function cardFace(card, {small = false} = {}) {
  if (!card) return h("span", {class: "card back"}, "");
  const rank = card[0];
  const suit = card[1];
  return h("span", {class: `card suit-${suit}${small ? " small" : ""}`, dataset: {card}},
    h("b", {}, RANK_SIGNS[rank] || rank), h("i", {}, SUIT_SIGNS[suit]));
}

export function cardsRow(cards, options) {
  return h("span", {class: "cards"}, (cards || []).map((c) => cardFace(c, options)));
}

// Let the dealer pick `count` cards (or "up to" when `min` < `count`), the cards
// in `used` disabled. Resolves with the cards, or null when cancelled.
export function pickCards({title, count, min = count, used = [], actions = []}) {
  return new Promise((resolve) => {
    const chosen = [];
    const taken = new Set(used);
    const picked = h("div", {class: "picked"});
    const keys = new Map();
    let done = false;
    const finish = (value) => {
      if (done) return;
      done = true;
      ui.close();
      resolve(value);
    };
    const ok = button(gettext("Done"), () => finish(chosen.slice()), {
      class: "primary", "data-action": "cards-done",
    });
    const refresh = () => {
      picked.replaceChildren(...chosen.map((c) => cardFace(c)),
        ...Array.from({length: count - chosen.length}, () => cardFace(null)));
      for (const [card, key] of keys) {
        key.disabled = taken.has(card) && !chosen.includes(card);
        key.classList.toggle("chosen", chosen.includes(card));
      }
      ok.disabled = chosen.length < min;
    };
    const grid = h("div", {class: "card-grid"});
    for (const suit of SUITS) {
      for (const rank of RANKS) {
        const card = rank + suit;
        const key = button(cardFace(card), () => {
          const at = chosen.indexOf(card);
          if (at >= 0) chosen.splice(at, 1);
          else if (chosen.length < count) chosen.push(card);
          refresh();
          // The last card needed closes the picker: one tap a card.
          if (chosen.length === count && min === count) finish(chosen.slice());
        }, {class: "card-key", "data-card": card, "aria-label": card});
        keys.set(card, key);
        grid.append(key);
      }
    }
    const hint = h("p", {class: "hint"}, interpolate(gettext("Cards to tap: %(n)s"), {n: count}));
    // Other ways on instead of cards (running the board twice).
    const others = actions.map(({label, action, name}) => button(label, () => {
      finish(null);
      action();
    }, {"data-action": name}));
    const body = h("div", {class: "picker"}, hint, picked, grid, h("div", {class: "row"},
      ...others,
      button(gettext("Cancel"), () => finish(null), {class: "quiet", "data-action": "cards-cancel"}),
      ok));
    const ui = sheet(title, body, {wide: true, name: "cards", onclose: () => {
      if (!done) {
        done = true;
        resolve(null);
      }
    }});
    refresh();
  });
}
