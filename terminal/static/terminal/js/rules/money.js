// Money in integer cents: the largest-remainder split (accounting.domain.money's
// ratio_split) and RK7's percentage rounded down to the chip, computed as Python's
// decimal module does (28 significant digits, half even), so that every amount is
// the server's to the cent.

/**
 * Split ``amount`` into ``parts`` equal shares of whole ``unit``s (the smallest
 * chip) by the largest-remainder method: the units left over go one each to the
 * first parts, and anything below one unit to the first part (HS5, HS10).
 */
export function equalSplit(amount, parts, unit) {
  const units = Math.floor(amount / unit);
  const below = amount - units * unit;
  const each = Math.floor(units / parts);
  const left = units - each * parts;
  const shares = [];
  for (let i = 0; i < parts; i++) shares.push((each + (i < left ? 1 : 0)) * unit);
  if (below) shares[0] += below;
  return shares;
}

const DECIMAL =
  /^([+-])?(?:(?:(\d+)(?:\.(\d*))?|\.(\d+))(?:[eE]([+-]?\d+))?|(inf|infinity)|(s?nan)(\d*))$/i;

/**
 * Return a decimal number as Python's ``Decimal(raw)`` reads it, or null where
 * Decimal refuses it: ``{sign: -1 | 0 | 1, finite, coefficient: BigInt, exponent,
 * above100}`` (value = sign * coefficient * 10 ** exponent). ``raw`` is a string or
 * a whole number.
 */
export function parseDecimal(raw) {
  if (typeof raw === "number") {
    const sign = Math.sign(raw);
    return {
      sign: sign === 0 ? 0 : sign,
      finite: true,
      coefficient: BigInt(Math.abs(raw)),
      exponent: 0,
      above100: Math.abs(raw) > 100,
    };
  }
  const match = DECIMAL.exec(raw.trim().replaceAll("_", "").trim());
  if (!match) return null;
  const negative = match[1] === "-";
  if (match[6] || match[7]) {
    return { sign: negative ? -1 : 1, finite: false, coefficient: 0n, exponent: 0, above100: true };
  }
  const whole = match[2] ?? "";
  const fraction = match[3] ?? match[4] ?? "";
  const digits = (whole + fraction).replace(/^0+/, "");
  const exponent = Number(match[5] ?? 0) - fraction.length;
  if (!digits) return { sign: 0, finite: true, coefficient: 0n, exponent: 0, above100: false };
  // The value's order of magnitude decides "above 100" without building huge numbers.
  const adjusted = exponent + digits.length - 1;
  const above100 = adjusted > 2 || (adjusted === 2 && compareScaled(BigInt(digits), exponent, 100n) > 0);
  return { sign: negative ? -1 : 1, finite: true, coefficient: BigInt(digits), exponent, above100 };
}

/** Compare coefficient * 10 ** exponent with a whole number; -1, 0 or 1. */
function compareScaled(coefficient, exponent, other) {
  const [a, b] = exponent >= 0
    ? [coefficient * 10n ** BigInt(exponent), other]
    : [coefficient, other * 10n ** BigInt(-exponent)];
  return a > b ? 1 : a < b ? -1 : 0;
}

const PRECISION = 28n;
const TEN = 10n;

function digitCount(n) {
  return BigInt(n.toString().length);
}

/**
 * Return the positive rational ``n / d`` (BigInts) rounded to 28 significant digits,
 * half even, as Python's default decimal context rounds a result: ``[n', d']``.
 */
function round28(n, d) {
  if (n === 0n) return [0n, 1n];
  // Scale so that the quotient has exactly 28 digits: q = n * 10**s / d.
  let s = PRECISION - (digitCount(n) - digitCount(d));
  let q;
  let r;
  let den;
  for (;;) {
    const num = s >= 0n ? n * TEN ** s : n;
    den = s >= 0n ? d : d * TEN ** -s;
    q = num / den;
    r = num % den;
    const digits = digitCount(q);
    if (digits > PRECISION) s -= 1n;
    else if (digits < PRECISION) s += 1n;
    else break;
  }
  if (r === 0n) return s >= 0n ? [q, TEN ** s] : [q * TEN ** -s, 1n];
  const twice = 2n * r;
  if (twice > den || (twice === den && q % 2n === 1n)) q += 1n;
  return s >= 0n ? [q, TEN ** s] : [q * TEN ** -s, 1n];
}

/**
 * Return how many ``chip``s RK7's ``percent`` of ``amount`` is, rounded down to the
 * chip: Python's ``rate_of(amount, percent, chip) // chip``, i.e.
 * ``(Decimal(amount) * percent / 100 / chip)`` rounded down, each operation rounded
 * to 28 significant digits as Python's decimal module does.
 */
export function percentChips(amount, percent, chip) {
  if (amount <= 0) return 0;
  // A percentage far below a cent of any amount rakes nothing (and would need
  // numbers with a million digits to say so exactly).
  if (percent.exponent + Number(digitCount(percent.coefficient)) < -40) return 0;
  const exp = BigInt(percent.exponent);
  // Decimal(amount) * percent, rounded.
  let [n, d] = round28(
    BigInt(amount) * percent.coefficient * (exp > 0n ? TEN ** exp : 1n),
    exp < 0n ? TEN ** -exp : 1n,
  );
  // / 100 is exact for 28 digits; / chip is rounded.
  [n, d] = round28(n, d * 100n * BigInt(chip));
  return Number(n / d);
}

/** Return ``floor(a / b)`` of whole numbers, exactly. */
export function floorDiv(a, b) {
  let q = Math.floor(a / b);
  if (q * b > a) q -= 1;
  else if ((q + 1) * b <= a) q += 1;
  return q;
}

/** Return ``ceil(a / b)`` of whole numbers, exactly. */
export function ceilDiv(a, b) {
  return -floorDiv(-a, b);
}

/**
 * Return ``ceil(offset / step)`` for RK2's pots laid end to end, where the step is
 * a whole number (pot_order) or, for a percentage, chip * 100 / percent exactly.
 */
export function unitsBefore(offset, rake) {
  if (rake.percent === null) return ceilDiv(offset, rake.step);
  if (offset <= 0) return 0;
  const { coefficient, exponent } = rake.percent;
  const exp = BigInt(exponent);
  // offset / (chip * 100 / (c * 10**e)) = offset * c * 10**e / (chip * 100)
  const num = BigInt(offset) * coefficient * (exp > 0n ? TEN ** exp : 1n);
  const den = BigInt(rake.unit) * 100n * (exp < 0n ? TEN ** -exp : 1n);
  return Number((num + den - 1n) / den);
}
