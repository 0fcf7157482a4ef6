import type {Nodes} from 'mdast'

/** Every node of an mdast tree, parents first; iterative, since a tree can nest thousands deep. */
export function* treeNodes(tree: Nodes): Generator<Nodes> {
  const pending: Nodes[] = [tree]
  while (pending.length > 0) {
    const node = pending.pop()!
    yield node
    if ('children' in node) for (let index = node.children.length - 1; index >= 0; index--) pending.push(node.children[index])
  }
}

/** A node's text as mdast-util-to-string gives it (values and image alts), without its recursion. */
export function textOf(node: Nodes): string {
  let text = ''
  for (const part of treeNodes(node)) {
    if ('value' in part) text += part.value
    else if (part.type === 'image') text += part.alt ?? ''
  }
  return text
}
