// Every scenario reports what it did as named figures: printed as the test runs, and
// appended as one JSON line to the file named by AGENT_PLAN_RELIABILITY_FIGURES, from
// which scripts/reliability.mjs prints the final table.
import * as fs from 'node:fs';

export type Figures = Record<string, string | number>;

export function recordFigures(scenario: string, figures: Figures): void {
  const text = Object.entries(figures)
    .map(([name, value]) => `${name}=${value}`)
    .join(', ');
  process.stdout.write(`      [figures] ${scenario}: ${text}\n`);
  const file = process.env.AGENT_PLAN_RELIABILITY_FIGURES;
  if (file) fs.appendFileSync(file, JSON.stringify({ scenario, figures }) + '\n');
}

/** The seed of this run's random choices: AGENT_PLAN_RELIABILITY_SEED, or a fresh one (printed). */
export function runSeed(): number {
  const fromEnv = Number(process.env.AGENT_PLAN_RELIABILITY_SEED);
  if (Number.isInteger(fromEnv)) return fromEnv;
  return (Date.now() ^ (process.pid << 16)) >>> 0;
}

/** A small seeded PRNG (mulberry32), for damage that can be replayed from its seed. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)] as T;
  }
  bytes(length: number): Uint8Array {
    return Uint8Array.from({ length }, () => this.int(0, 255));
  }
}
