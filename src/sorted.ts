/** How many of `items` (sorted by `key`) have a key at or before `offset`: a binary search. */
export function countUpTo<Item>(items: readonly Item[], key: (item: Item) => number, offset: number): number {
  let low = 0
  let high = items.length
  while (low < high) {
    const middle = (low + high) >> 1
    if (key(items[middle]) <= offset) low = middle + 1
    else high = middle
  }
  return low
}
