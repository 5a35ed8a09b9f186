// Protocol buffer wire encoding, as Go's proto.Marshal writes it: fields in the order the caller
// emits them (callers go by field number), varints, 64-bit doubles, length-delimited strings and
// nested messages. Nested messages are written into their own writer and copied in once their
// length is known.
import { WIRE_BYTES, WIRE_FIXED64, WIRE_VARINT } from './wire.ts';

const textEncoder = new TextEncoder();

export class WireWriter {
  private chunks: Uint8Array[] = [];
  private current = new Uint8Array(256);
  private pos = 0;
  private total = 0;

  private ensure(n: number): void {
    if (this.pos + n <= this.current.length) return;
    this.chunks.push(this.current.subarray(0, this.pos));
    this.current = new Uint8Array(Math.max(n, this.current.length * 2));
    this.pos = 0;
  }

  private byte(b: number): void {
    this.ensure(1);
    this.current[this.pos++] = b;
    this.total++;
  }

  /** An unsigned varint of a non-negative safe integer, or a bigint (int64 two's complement for negatives). */
  varint(v: number | bigint): this {
    let x = typeof v === 'bigint' ? BigInt.asUintN(64, v) : v < 0 ? BigInt.asUintN(64, BigInt(v)) : v;
    if (typeof x === 'number') {
      while (x >= 0x80) {
        this.byte((x % 0x80) | 0x80);
        x = Math.floor(x / 0x80);
      }
      this.byte(x);
      return this;
    }
    while (x >= 0x80n) {
      this.byte(Number(x & 0x7fn) | 0x80);
      x >>= 7n;
    }
    this.byte(Number(x));
    return this;
  }

  tag(field: number, wireType: number): this {
    return this.varint(field * 8 + wireType);
  }

  bytes(field: number, data: Uint8Array): this {
    this.tag(field, WIRE_BYTES).varint(data.length);
    this.ensure(data.length);
    this.current.set(data, this.pos);
    this.pos += data.length;
    this.total += data.length;
    return this;
  }

  string(field: number, s: string): this {
    return this.bytes(field, textEncoder.encode(s));
  }

  bool(field: number, b: boolean): this {
    return this.tag(field, WIRE_VARINT).varint(b ? 1 : 0);
  }

  int64(field: number, v: number | bigint): this {
    return this.tag(field, WIRE_VARINT).varint(v);
  }

  double(field: number, v: number): this {
    this.tag(field, WIRE_FIXED64);
    this.ensure(8);
    new DataView(this.current.buffer, this.current.byteOffset + this.pos, 8).setFloat64(0, v, true);
    this.pos += 8;
    this.total += 8;
    return this;
  }

  message(field: number, write: (w: WireWriter) => void): this {
    const nested = new WireWriter();
    write(nested);
    return this.bytes(field, nested.finish());
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.total);
    let at = 0;
    for (const c of [...this.chunks, this.current.subarray(0, this.pos)]) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }
}
