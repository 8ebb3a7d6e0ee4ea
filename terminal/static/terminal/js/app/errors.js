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
  not_your_turn: gettext_noop("It is not this seat's turn."),
  cannot_check: gettext_noop("There is a bet to call: this seat can't check."),
  cannot_call: gettext_noop("There is nothing to call."),
  cannot_bet: gettext_noop("There is a bet already: raise instead."),
  cannot_raise: gettext_noop("This seat can't raise: the betting is not reopened (full bet rule)."),
  betting_closed: gettext_noop("The betting on this street is closed."),
  bet_below_minimum: gettext_noop("A bet must be at least %(min)s."),
  bet_above_maximum: gettext_noop("A bet can be at most %(max)s."),
  raise_below_minimum: gettext_noop("A raise must be to at least %(min)s (the minimum raise)."),
  raise_above_maximum: gettext_noop("A raise can be to at most %(max)s (the pot limit)."),
  raise_above_stack: gettext_noop("The seat has only %(max)s: that is all in."),
  above_stack: gettext_noop("The seat has only %(max)s: that is all in."),
  wrong_amount: gettext_noop("In a limit game the bet is %(min)s."),
  cap_reached: gettext_noop("The betting is capped on this street: call or fold."),
  no_stack: gettext_noop("This seat is all in already."),
  hand_over: gettext_noop("The hand is over."),
  cards_needed: gettext_noop("Deal the cards first."),
  bring_in: gettext_noop("The bring-in is %(min)s, or complete to %(max)s."),
  unknown_action: gettext_noop("This action isn't known."),
  duplicate_card: gettext_noop("A card is already in the hand."),
  wrong_card_count: gettext_noop("Wrong number of cards."),
  run_twice_not_allowed: gettext_noop("The board can be run twice only when every player left is all in."),
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
