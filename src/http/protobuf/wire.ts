// A bounds-checked protobuf wire-format reader. Kubernetes messages are proto2 written by
// gogo-protobuf, so only the basic wire types matter (no zigzag: k8s declares no sint fields).
// Every read checks the end of its window first, so truncated or hostile input throws a
// ProtobufDecodeError instead of reading past the buffer or looping.
//
// Error texts follow the gogo-generated Unmarshal/skipGenerated code in k8s.io/api
// (generated.pb.go), so callers can surface them as kube-apiserver would.

/**
 * malformed: bad prefix, truncation, wrong wire types (a 400 from kube-apiserver);
 * missingKind: the envelope names no kind or version; unknownKind: not a kind kubefake decodes.
 */
export type ProtobufDecodeErrorReason = 'malformed' | 'missingKind' | 'unknownKind';

export class ProtobufDecodeError extends Error {
  override readonly name = 'ProtobufDecodeError';
  readonly reason: ProtobufDecodeErrorReason;

  constructor(message: string, reason: ProtobufDecodeErrorReason = 'malformed') {
    super(message);
    this.reason = reason;
  }
}

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_BYTES = 2;
export const WIRE_START_GROUP = 3;
export const WIRE_END_GROUP = 4;
export const WIRE_FIXED32 = 5;

/** io.ErrUnexpectedEOF */
export const UNEXPECTED_EOF = 'unexpected EOF';
/** ErrIntOverflowGenerated: a varint longer than 10 bytes. */
export const INTEGER_OVERFLOW = 'proto: integer overflow';
/** ErrInvalidLengthGenerated */
export const INVALID_LENGTH = 'proto: negative length found during unmarshaling';

/** Groups are long dead in proto, but skipping must not recurse without bound on hostile input. */
const MAX_GROUP_DEPTH = 100;

export class WireReader {
  readonly buf: Uint8Array;
  pos: number;
  readonly end: number;
  // The high 32 bits of the last varint (the low ones are returned), to avoid an allocation per read.
  private hi = 0;

  constructor(buf: Uint8Array, start = 0, end = buf.length) {
    this.buf = buf;
    this.pos = start;
    this.end = end;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  /** Reads a varint of up to 10 bytes; returns its low 32 bits (unsigned), keeps the high ones. */
  private varint(): number {
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new ProtobufDecodeError(UNEXPECTED_EOF);
      const b = this.buf[this.pos++]!;
      const bits = b & 0x7f;
      const shift = i * 7;
      if (shift < 28) lo |= bits << shift;
      else if (shift === 28) {
        lo |= (bits & 0x0f) << 28;
        hi |= bits >>> 4;
      } else hi |= bits << (shift - 32); // bits beyond 64 fall off, as in Go's uint64 shifts
      if (b < 0x80) {
        this.hi = hi >>> 0;
        return lo >>> 0;
      }
    }
    throw new ProtobufDecodeError(INTEGER_OVERFLOW);
  }

  /**
   * A field key: the field number as Go's int32(wire >> 3), the wire type, and the whole key
   * (which gogo prints in its "illegal tag" text).
   */
  tag(): { field: number; wireType: number; key: number } {
    const lo = this.varint();
    return { field: ((lo >>> 3) | (this.hi << 29)) | 0, wireType: lo & 7, key: this.hi * 4294967296 + lo };
  }

  bool(): boolean {
    const lo = this.varint();
    return lo !== 0 || this.hi !== 0;
  }

  /** int32 fields: negative values arrive sign-extended to 10 bytes; Go keeps the low 32 bits. */
  int32(): number {
    return this.varint() | 0;
  }

  /** int64 fields as a JS number: exact within ±2^53, rounded beyond (as JSON.parse would). */
  int64(): number {
    const lo = this.varint();
    return (this.hi | 0) * 4294967296 + lo;
  }

  /** A length prefix; lengths past 2^31 are Go's negative-int case. */
  length(): number {
    const lo = this.varint();
    if (this.hi !== 0 || lo > 0x7fffffff) throw new ProtobufDecodeError(INVALID_LENGTH);
    return lo;
  }

  /** A length-delimited payload, as a view into the buffer (no copy). */
  bytes(): Uint8Array {
    const len = this.length();
    if (len > this.end - this.pos) throw new ProtobufDecodeError(UNEXPECTED_EOF);
    const out = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }

  fixed64(): DataView {
    return this.fixed(8);
  }

  fixed32(): DataView {
    return this.fixed(4);
  }

  double(): number {
    return this.fixed64().getFloat64(0, true);
  }

  private fixed(n: number): DataView {
    if (n > this.end - this.pos) throw new ProtobufDecodeError(UNEXPECTED_EOF);
    const view = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, n);
    this.pos += n;
    return view;
  }

  /**
   * Skips the value of a field whose key was just read (unknown fields), including whole
   * groups, as skipGenerated does.
   */
  skip(wireType: number): void {
    let depth = 0;
    for (;;) {
      switch (wireType) {
        case WIRE_VARINT:
          this.varint();
          break;
        case WIRE_FIXED64:
          this.fixed(8);
          break;
        case WIRE_BYTES:
          this.bytes();
          break;
        case WIRE_FIXED32:
          this.fixed(4);
          break;
        case WIRE_START_GROUP:
          if (++depth > MAX_GROUP_DEPTH) throw new ProtobufDecodeError('proto: group nesting too deep');
          break;
        case WIRE_END_GROUP:
          if (depth === 0) throw new ProtobufDecodeError('proto: unexpected end of group');
          depth--;
          break;
        default:
          throw new ProtobufDecodeError(`proto: illegal wireType ${wireType}`);
      }
      if (depth === 0) return;
      if (this.done) throw new ProtobufDecodeError(UNEXPECTED_EOF);
      wireType = this.tag().wireType;
    }
  }
}
