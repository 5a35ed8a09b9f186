// A selector that cannot be parsed or validated. The message is the exact Go error text; the HTTP
// layer sends it as a 400 BadRequest with that text (apiserver wraps the ListOptions decode error).
export class SelectorParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SelectorParseError';
  }
}
