/**
 * `transform` with its results for short inputs kept: a server sees the same few feed URLs, routes
 * and client addresses over and over, and a Map lookup is a fraction of a parse or a scrub.
 * Bounded: when full, it starts over.
 */
export function remembered(transform: (input: string) => string, capacity = 1000): (input: string) => string {
  const results = new Map<string, string>();
  return (input) => {
    if (input.length > 200) return transform(input);
    let result = results.get(input);
    if (result === undefined) {
      result = transform(input);
      if (results.size >= capacity) results.clear();
      results.set(input, result);
    }
    return result;
  };
}
