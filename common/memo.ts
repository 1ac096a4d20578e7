/** What `cache` holds for `key`, made by `make` and kept the first time it is asked for. */
export function memo<K, V>(cache: { get(key: K): V | undefined; set(key: K, value: V): unknown }, key: K, make: () => V): V {
  let value = cache.get(key);
  if (value === undefined) cache.set(key, (value = make()));
  return value;
}
