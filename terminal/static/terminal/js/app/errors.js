// Refusals in the dealer's language.
//
// The server's come in the API's one error shape, their `detail` already in the
// language the terminal asked for (Accept-Language). The rules' own (an illegal
// action refused by rules/betting.js, a hand rules/settle.js can't settle) carry a
// code and an English reason: they are translated here by their code, with the
// amounts allowed.

import {gettext, gettext_noop, interpolate, money} from "./i18n.js";

// An action the betting rules refuse, by its code.
const ACTIONS = {
  hand_over: gettext_noop("The hand is over."),
  cards_needed: gettext_noop("Deal the cards first."),
  not_your_turn: gettext_noop("It is not this seat's turn."),
  not_in_hand: gettext_noop("This seat is not in the hand."),
  unknown_action: gettext_noop("This action isn't known."),
  bad_amount: gettext_noop("That amount is not a whole number of cents."),
  cannot_check: gettext_noop("There is a bet to call: this seat can't check."),
  nothing_to_call: gettext_noop("There is nothing to call."),
  bring_in_required: gettext_noop("The lowest up-card brings it in first."),
  no_bring_in: gettext_noop("There is no bring-in now."),
  below_minimum: gettext_noop("Too small: at least %(min)s (the minimum bet or raise)."),
  above_maximum: gettext_noop("Too big: at most %(max)s (the pot limit)."),
  not_limit_size: gettext_noop("In a limit game the bet is the fixed size."),
  cap_reached: gettext_noop("The betting is capped on this street: call or fold."),
  not_reopened: gettext_noop("This seat can't raise: an all-in short of a full raise doesn't reopen the betting (full bet rule)."),
  no_opponent: gettext_noop("Nobody is left to call a raise."),
  above_stack: gettext_noop("The seat doesn't have that much: table stakes."),
  not_enough_players: gettext_noop("Two players are needed to deal."),
  straddle_not_allowed: gettext_noop("No straddle in this hand."),
  bad_structure: gettext_noop("The table's structure doesn't fit its game."),
  unknown_game: gettext_noop("The terminal doesn't know this game."),
  nothing_to_deal: gettext_noop("No cards are due now."),
  bad_card: gettext_noop("That is not a card."),
  duplicate_card: gettext_noop("That card is already in the hand."),
  wrong_card_count: gettext_noop("Wrong number of cards."),
  cannot_run_twice: gettext_noop("The board is run twice only when the players left are all in."),
  not_at_showdown: gettext_noop("Cards are shown at the showdown."),
  last_contender: gettext_noop("The last player in doesn't muck: he wins the pot."),
  up_cards_missing: gettext_noop("Show the seat's up-cards too."),
};

// The rule names shown beside a refusal.
function ruleOf(error) {
  return error && error.rule ? ` (${error.rule})` : "";
}

function allowedText(allowed) {
  if (!allowed || typeof allowed !== "object") return "";
  const {min, max} = allowed;
  if (Number.isSafeInteger(min) && Number.isSafeInteger(max)) {
    return " " + interpolate(gettext("Allowed: %(min)s to %(max)s."),
      {min: money(min), max: money(max)});
  }
  if (Number.isSafeInteger(min)) {
    return " " + interpolate(gettext("At least %(min)s."), {min: money(min)});
  }
  if (Number.isSafeInteger(max)) {
    return " " + interpolate(gettext("At most %(max)s."), {max: money(max)});
  }
  return "";
}

// An action refused by the rules, in words.
export function describeIllegal(error) {
  const allowed = error.allowed || {};
  const params = {
    min: Number.isSafeInteger(allowed.min) ? money(allowed.min) : "",
    max: Number.isSafeInteger(allowed.max) ? money(allowed.max) : "",
  };
  const text = ACTIONS[error.code];
  if (text) return interpolate(gettext(text), params) + ruleOf(error);
  return (error.reason || error.message || error.code) + ruleOf(error) + allowedText(allowed);
}

// A refusal by the server (the API's error shape), in words.
export function describeError(error) {
  if (!error) return "";
  const detail = error.detail || error.reason || error.code || "";
  return detail + ruleOf(error) + allowedText(error.allowed);
}
