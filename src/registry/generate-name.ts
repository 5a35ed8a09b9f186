// names.SimpleNameGenerator: prefix (cut to 58) + 5 characters from the apiserver's alphabet.
import type { RandomSource } from '../util/clock-and-random.ts';

const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const RANDOM_LENGTH = 5;
const MAX_GENERATED_NAME_LENGTH = 63 - RANDOM_LENGTH;
/** How many times create retries a generated name that already exists. */
export const GENERATE_NAME_ATTEMPTS = 8;

export function generateName(prefix: string, random: RandomSource): string {
  let suffix = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) suffix += random.pick(ALPHABET);
  return prefix.slice(0, MAX_GENERATED_NAME_LENGTH) + suffix;
}

/**
 * The prefix `name` was generated from, when it is `generateName` (cut to 58) followed by five
 * characters of the alphabet; undefined for a name given by the client. Snapshots use it to
 * replace the random part.
 */
export function generatedPrefix(name: string, generateName: string | undefined): string | undefined {
  if (!generateName) return undefined;
  const prefix = generateName.slice(0, MAX_GENERATED_NAME_LENGTH);
  if (name.length !== prefix.length + RANDOM_LENGTH || !name.startsWith(prefix)) return undefined;
  for (const c of name.slice(prefix.length)) if (!ALPHABET.includes(c)) return undefined;
  return prefix;
}
