/**
 * Query strings for the filtered-collection cache-miss route: request number n gets a filter combination
 * no other request of the run gets, so every request misses the gateway's filtered-collection cache.
 *
 * Combinations are the mixed-radix product of every filter's real values plus "absent"; n is spread over
 * the product by multiplying with a stride coprime to its size (a bijection), so consecutive requests do
 * not walk one filter at a time. Past the product's size (never reached in a bounded run) an unknown
 * `category` keeps requests distinct.
 */

/** Filter name and its real values, in the order the combination index is decomposed. */
export type FilterAxes = ReadonlyArray<readonly [name: string, values: readonly string[]]>;

/** Multiplier of the bijection; a prime, checked coprime to the product at construction. */
export const MISS_STRIDE = 1_000_003;

/** A deterministic generator of distinct filter query strings. */
export interface MissQueries {
  /** Number of distinct real combinations (each axis's values plus absent, multiplied). */
  readonly size: number;
  readonly axes: FilterAxes;
  /** The query (without `?`) of request n (n >= 0). */
  query(n: number): string;
}

/** Builds the generator; throws when the stride shares a factor with the product (the walk would repeat). */
export function createMissQueries(axes: FilterAxes): MissQueries {
  const size = axes.reduce((product, [, values]) => product * (values.length + 1), 1);
  if (gcd(MISS_STRIDE, size) !== 1) throw new Error(`miss queries: stride ${MISS_STRIDE} is not coprime to ${size}`);
  return {
    size,
    axes,
    query(n: number): string {
      if (n >= size) return `category=bench-unknown-${n}`;
      let rest = (n * MISS_STRIDE) % size;
      const parts: string[] = [];
      for (const [name, values] of axes) {
        const radix = values.length + 1;
        const digit = rest % radix;
        rest = Math.floor(rest / radix);
        if (digit > 0) parts.push(`${name}=${encodeURIComponent(values[digit - 1] as string)}`);
      }
      // Combination 0 (no filter at all) would be the unfiltered collection; give it an unknown category.
      return parts.length === 0 ? 'category=bench-none' : parts.join('&');
    },
  };
}

/**
 * The same generator as a wrk Lua script: request k of thread t is n = offset + k * threads + t, so the
 * threads never overlap and a later round (a larger offset) never repeats an earlier one.
 */
export function missQueriesLua(queries: MissQueries, path: string, threads: number, headers: Readonly<Record<string, string>>): string {
  const axes = queries.axes
    .map(([name, values]) => `  { "${name}", { ${values.map((value) => `"${encodeURIComponent(value)}"`).join(', ')} } },`)
    .join('\n');
  return `${headerLines(headers)}
local axes = {
${axes}
}
local size = ${queries.size}
local stride = ${MISS_STRIDE}
local threads = ${threads}
local path = "${path}"
local offset = 0
local counter = 0
local next_id = 0
tid = 0

function setup(thread)
  thread:set("tid", next_id)
  next_id = next_id + 1
end

function init(args)
  offset = tonumber(args[1] or "0")
end

function request()
  local n = offset + counter * threads + tid
  counter = counter + 1
  local q
  if n >= size then
    q = "category=bench-unknown-" .. string.format("%d", n)
  else
    local rest = (n * stride) % size
    local parts = {}
    for _, axis in ipairs(axes) do
      local radix = #axis[2] + 1
      local digit = rest % radix
      rest = math.floor(rest / radix)
      if digit > 0 then parts[#parts + 1] = axis[1] .. "=" .. axis[2][digit] end
    end
    if #parts == 0 then q = "category=bench-none" else q = table.concat(parts, "&") end
  end
  return wrk.format(nil, path .. "?" .. q)
end
`;
}

/** Lua lines that add fixed headers to every request of a wrk script. */
export function headerLines(headers: Readonly<Record<string, string>>): string {
  return Object.entries(headers)
    .map(([name, value]) => `wrk.headers["${name}"] = "${value}"`)
    .join('\n');
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
