// names.SimpleNameGenerator: prefix (cut to 58) + 5 characters from the apiserver's alphabet.
import type { RandomSource } from './context.ts';

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
