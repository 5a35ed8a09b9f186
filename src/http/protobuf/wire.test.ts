import { describe, expect, it } from 'vitest';
import { ProtobufDecodeError, WireReader } from './wire.ts';

const reader = (...bytes: number[]) => new WireReader(Uint8Array.from(bytes));

function varint(n: bigint): number[] {
  let v = BigInt.asUintN(64, n);
  const out: number[] = [];
  do {
    const b = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v ? b | 0x80 : b);
  } while (v);
  return out;
}

function thrown(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ProtobufDecodeError);
    return (err as Error).message;
  }
  throw new Error('expected a throw');
}

describe('WireReader', () => {
  it('reads varints of every length', () => {
    for (const n of [0n, 1n, 127n, 128n, 300n, 2n ** 28n - 1n, 2n ** 28n, 2n ** 31n, 2n ** 32n + 5n, 2n ** 53n - 1n, -1n, -(2n ** 53n) + 1n]) {
      const r = reader(...varint(n));
      expect(r.int64()).toBe(Number(n));
      expect(r.done).toBe(true);
    }
  });

  it('int32: negative values arrive as 10-byte sign-extended varints', () => {
    expect(reader(...varint(-5n)).int32()).toBe(-5);
    expect(varint(-5n)).toHaveLength(10);
    expect(reader(...varint(2n ** 31n - 1n)).int32()).toBe(2 ** 31 - 1);
    // Go keeps the low 32 bits of a too-large value
    expect(reader(...varint(2n ** 32n + 7n)).int32()).toBe(7);
  });

  it('bool: any non-zero varint is true, even with only high bits set', () => {
    expect(reader(0).bool()).toBe(false);
    expect(reader(1).bool()).toBe(true);
    expect(reader(...varint(2n ** 40n)).bool()).toBe(true);
  });

  it('the tenth byte keeps only the bits that fit 64', () => {
    expect(reader(...Array(9).fill(0x80), 0x7f).int64()).toBe(-(2 ** 63));
  });

  it('rejects 11-byte varints and truncated ones', () => {
    expect(thrown(() => reader(...Array(10).fill(0x80), 0).int64())).toBe('proto: integer overflow');
    expect(thrown(() => reader(0x80, 0x80).int64())).toBe('unexpected EOF');
    expect(thrown(() => reader().int64())).toBe('unexpected EOF');
  });

  it('length-delimited: views, bounds, negative lengths', () => {
    const r = reader(3, 1, 2, 3, 9);
    expect([...r.bytes()]).toEqual([1, 2, 3]);
    expect(r.pos).toBe(4);
    expect(thrown(() => reader(5, 1, 2).bytes())).toBe('unexpected EOF');
    expect(thrown(() => reader(...varint(2n ** 31n)).bytes())).toBe('proto: negative length found during unmarshaling');
    expect(thrown(() => reader(...varint(-1n)).bytes())).toBe('proto: negative length found during unmarshaling');
  });

  it('reads within a window only', () => {
    const r = new WireReader(Uint8Array.of(9, 2, 1, 2, 9), 1, 3);
    expect(thrown(() => r.bytes())).toBe('unexpected EOF');
  });

  it('fixed-width values', () => {
    const buf = Buffer.alloc(8);
    buf.writeDoubleLE(1.5);
    expect(reader(...buf).double()).toBe(1.5);
    expect(reader(1, 0, 0, 0).fixed32().getUint32(0, true)).toBe(1);
    expect(thrown(() => reader(1, 2, 3).fixed32())).toBe('unexpected EOF');
    expect(thrown(() => reader(1, 2, 3, 4, 5, 6, 7).fixed64())).toBe('unexpected EOF');
  });

  it('tags: field number and wire type; Go\'s int32(key >> 3) for huge keys', () => {
    expect(reader(0x0a).tag()).toEqual({ field: 1, wireType: 2, key: 10 });
    expect(reader(...varint((536870911n << 3n) | 5n)).tag()).toMatchObject({ field: 536870911, wireType: 5 });
    expect(reader(...varint(1n << 34n)).tag().field).toBe(-2147483648);
  });

  it('skips every wire type, and nested groups', () => {
    const r = reader(0x96, 0x01, /* fixed64 */ 1, 2, 3, 4, 5, 6, 7, 8, /* bytes */ 2, 0, 0, /* fixed32 */ 1, 2, 3, 4);
    r.skip(0);
    r.skip(1);
    r.skip(2);
    r.skip(5);
    expect(r.done).toBe(true);
    // start group (field 1) already read: {field 2 varint, group 3 {field 4 bytes}, end 1}
    const g = reader(0x10, 1, 0x1b, 0x22, 1, 0xff, 0x1c, 0x0c, 0x08, 7);
    g.skip(3);
    expect(g.pos).toBe(8);
    expect(thrown(() => reader(0x10, 1).skip(3))).toBe('unexpected EOF');
    expect(thrown(() => reader().skip(4))).toBe('proto: unexpected end of group');
    expect(thrown(() => reader().skip(6))).toBe('proto: illegal wireType 6');
    expect(thrown(() => reader(...Array(200).fill(0x0b)).skip(3))).toBe('proto: group nesting too deep');
  });
});
