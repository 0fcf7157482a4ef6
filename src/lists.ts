/** Adds `value` to the list `key` holds in `map`, starting the list if there is none. */
export function pushTo<Key, Value>(map: Map<Key, Value[]>, key: Key, value: Value): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}
