// The settlement's refusals: API.md's error shape with cardroom.domain.errors' codes,
// rules and English texts, so that a hand refused offline is refused as the server
// would refuse it (the app translates by code).

/** The engine's texts by code, or by code and variant ("code:variant"). */
const MUST_BE_WHOLE = "%(field)s must be a whole number, not %(value)r.";
const AT_LEAST = "%(field)s must be at least %(minimum)s, not %(value)s.";

export const TEXTS = {
  invalid_policy: "A policy is a JSON object.",
  "invalid_policy:whole": MUST_BE_WHOLE,
  "invalid_policy:at_least": AT_LEAST,
  "invalid_policy:missing": "The policy has no %(field)r.",
  "invalid_policy:currency": "currency must be a currency code.",
  "invalid_policy:drop": "jackpot_drop is an object or null.",
  "invalid_policy:first_run_only": "jackpots_first_run_only must be true or false.",
  "invalid_policy:rake": "rake is an object with a scheme.",
  "invalid_policy:unit_above_step": "rake.unit %(unit)s is more than rake.step %(step)s.",
  "invalid_policy:percent_text": 'rake.percent is a decimal string such as "5" or "2.5".',
  "invalid_policy:percent_number": "rake.percent %(percent)r is not a number.",
  "invalid_policy:percent_range": "rake.percent must be between 0 and 100, not %(percent)r.",
  "invalid_policy:scheme": "Unknown rake scheme %(scheme)r.",
  "invalid_policy:caps": "rake.caps_by_players is a list of {min_players, cap}.",
  "invalid_policy:cap_entry": "Each rake.caps_by_players entry is {min_players, cap}.",
  "invalid_policy:cap_players":
    "rake.caps_by_players names %(players)s players twice or more than a table seats.",
  malformed_hand: "A hand record is a JSON object.",
  "malformed_hand:whole": MUST_BE_WHOLE,
  "malformed_hand:at_least": AT_LEAST,
  "malformed_hand:seat_whole": "Seat %(seat)s: %(field)s must be a whole number, not %(value)r.",
  "malformed_hand:missing": "The hand record has no %(field)r.",
  "malformed_hand:table": "table must be a table code, not %(table)r.",
  "malformed_hand:hand_no": "hand_no must be a whole number from 0 up, not %(hand_no)r.",
  "malformed_hand:bring_in": "%(game)s has no bring-in; only stud games do.",
  "malformed_hand:bomb_pot":
    "bomb_pot is true or false (PR4: a bomb pot counts for no promotion), not %(value)r.",
  "malformed_hand:time": "%(field)s must be an ISO 8601 time, not %(value)r.",
  "malformed_hand:seats": "seats must be a list of seats.",
  "malformed_hand:seat": "A seat is an object, not %(seat)r.",
  "malformed_hand:seat_missing": "A seat has no %(field)r.",
  "malformed_hand:player": "Seat %(seat)s: player must be a player id, not %(player)r.",
  "malformed_hand:true_or_false": "Seat %(seat)s: %(field)s must be true or false.",
  "malformed_hand:seat_cards": "Seat %(seat)s: cards must be a list of cards.",
  "malformed_hand:invalid_seat": "Seat %(seat)s is not a valid seat.",
  "malformed_hand:board": "board must be a list of cards, not %(board)r.",
  "malformed_hand:boards": "boards must be a list of boards, one per run.",
  "malformed_hand:awarded": "awarded must be a list of {seat, amount}.",
  "malformed_hand:awarded_entry": "Each awarded entry is {seat, amount}.",
  malformed_card:
    "%(card)r is not a card: a card is a rank of %(ranks)s and a suit of %(suits)s, such as 'Ah' or 'Tc'.",
  negative_amount: AT_LEAST,
  "negative_amount:seat": "Seat %(seat)s: %(field)s must be at least %(minimum)s, not %(value)s.",
  unknown_game: "Unknown game %(game)r.",
  invalid_streets: "streets must be 1 … %(last)s in %(game)s, not %(streets)r.",
  invalid_awarded: "awarded names seat %(seat)r, which is not dealt in or is named twice.",
  too_few_seats: "A hand needs at least two seats dealt in.",
  duplicate_seat: "Seat %(seat)s is listed twice.",
  too_many_seats: "%(count)s seats dealt in; a table has at most %(max)s.",
  "too_many_seats:number": "Seat numbers are 1 … %(max)s, not %(seat)r.",
  invalid_button: "button must be a seat number 1 … %(max)s, not %(button)r.",
  put_in_above_stack:
    "Seat %(seat)s put in %(put_in)s but started the hand with %(stack)s; only chips on the table when the hand starts play in it.",
  dead_above_put_in:
    "Seat %(seat)s: dead money %(dead)s and straddle %(straddle)s are parts of put_in %(put_in)s and can't add up to more.",
  mucked_and_folded:
    "Seat %(seat)s is marked folded and mucked; a seat that mucks at the showdown did not fold.",
  wrong_card_count: "%(game)s after street %(streets)s has %(expected)s board cards, not %(count)s.",
  "wrong_card_count:seat":
    "Seat %(seat)s shows %(count)s cards; %(game)s after street %(streets)s deals %(expected)s.",
  "wrong_card_count:soko": "A Sökö hand is five cards, not %(count)s.",
  duplicate_card: "%(cards)s dealt more than once: a duplicate card voids the hand.",
  invalid_boards: "boards[0] is the first run and must be the same as board.",
  "invalid_boards:stud": "%(game)s deals no board; only board games run a pot more than once.",
  "invalid_boards:to_the_end":
    "A pot run more than once is dealt to the end: each run's board holds %(cards)s cards.",
  "invalid_boards:same_run":
    "Run %(run)s has the same board as the first run; each run deals its own cards.",
  no_contender: "Every seat folded or mucked; a hand ends with at least one player in it.",
  "no_contender:chips":
    "Chips were put in but no seat still in the hand put in any; nobody can win them.",
  incomplete_showdown:
    "Seats %(seats)s contest a pot but %(game)s was dealt to street %(streets)s of %(last)s; a showdown comes after the last street.",
  showdown_without_cards:
    "Seats %(seats)s contest a pot at showdown but show no cards; cards speak, so a seat still in must table them.",
  mispaid_pot:
    "The chips the dealer pushed differ from what the rules give; a floor person may correct it before the next hand at the table.",
};

/** A hand record or policy the rules can't settle (API.md's error shape). */
export class SettleError extends Error {
  /**
   * ``code``: the Python engine's code (``duplicate_card``); ``rule``: the rule of
   * RULES.md that refuses it, or null; ``detail``: English; ``allowed``: what would
   * be accepted, or null; ``template`` and ``params``: the detail before it was
   * filled in, for a translation.
   */
  constructor(code, { rule = null, allowed = null, template = "", params = null } = {}) {
    const detail = params ? format(template, params) : template;
    super(detail);
    this.name = "SettleError";
    this.code = code;
    this.rule = rule;
    this.detail = detail;
    this.allowed = allowed;
    this.template = template;
    this.params = params;
  }

  /** Return API.md's error object: ``{"error": {code, rule, detail, allowed}}``. */
  toJSON() {
    return { error: { code: this.code, rule: this.rule, detail: this.detail, allowed: this.allowed } };
  }
}

/**
 * Return (not throw) the SettleError of ``code``, its text ``variant`` (or the
 * code's own text), with ``rule``, ``allowed`` and the text's parameters.
 */
export function refuse(code, variant = null, { rule = null, allowed = null, ...params } = {}) {
  const template = TEXTS[variant ? `${code}:${variant}` : code];
  return new SettleError(code, {
    rule,
    allowed,
    template,
    params: Object.keys(params).length ? params : null,
  });
}

/** Fill a Python %-template: ``%(name)s`` as str(), ``%(name)r`` as repr(). */
export function format(template, params) {
  return template.replace(/%\((\w+)\)([sr])/g, (_, name, kind) =>
    kind === "r" ? pyRepr(params[name]) : pyStr(params[name]),
  );
}

function pyStr(value) {
  if (typeof value === "string") return value;
  return pyRepr(value);
}

/** Return Python's repr() of a decoded JSON value, as the server's details say it. */
export function pyRepr(value) {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") {
    if (Number.isInteger(value)) return Number.isSafeInteger(value) ? String(value) : pyFloat(value);
    return pyFloat(value);
  }
  if (typeof value === "string") {
    const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
    let text = "";
    for (const ch of value) {
      const code = ch.codePointAt(0);
      if (ch === "\\") text += "\\\\";
      else if (ch === quote) text += "\\" + quote;
      else if (ch === "\n") text += "\\n";
      else if (ch === "\r") text += "\\r";
      else if (ch === "\t") text += "\\t";
      else if (code < 0x20 || code === 0x7f) text += "\\x" + code.toString(16).padStart(2, "0");
      else text += ch;
    }
    return quote + text + quote;
  }
  if (Array.isArray(value)) return "[" + value.map(pyRepr).join(", ") + "]";
  if (typeof value === "object") {
    return "{" + Object.entries(value).map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`).join(", ") + "}";
  }
  return String(value);
}

function pyFloat(value) {
  if (Number.isInteger(value) && Math.abs(value) < 1e16) return value.toFixed(1);
  const text = String(value);
  const exponent = /^(.*)e([+-])(\d+)$/.exec(text);
  return exponent ? `${exponent[1]}e${exponent[2]}${exponent[3].padStart(2, "0")}` : text;
}
