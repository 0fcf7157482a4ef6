import {lineRanges, type Range} from './text.js'

/** One attribute of an opening tag. `valueRange` excludes the quotes. */
export interface Attribute {
  name: string
  nameRange: Range
  value: string | undefined
  valueRange: Range | undefined
  quote: '"' | "'" | ''
  range: Range
}

/** An XML-like element of a plan (`<task>`, `<action>`, `<option>`, ...). */
export interface Element {
  name: string
  /** From the `<` of the opening tag to the `>` of the closing tag (or where the element was cut off). */
  range: Range
  openTag: Range
  closeTag: Range | undefined
  contentRange: Range
  attributes: Attribute[]
  children: Element[]
  parent: Element | undefined
}

export type MarkupProblemKind =
  | 'unclosed'
  | 'stray-close'
  | 'mistyped-close'
  | 'nested-task'
  | 'unterminated-tag'
  | 'duplicate-attribute'
  | 'unquoted-attribute'
  | 'swallowed-tasks'
  | 'glued-fence'
  | 'nul-bytes'
  | 'nested-too-deep'

export interface MarkupProblem {
  kind: MarkupProblemKind
  message: string
  range: Range
  element?: Element
  /** For a mistyped close tag: the element name it wrote (`action` in `<behavior>…</action>`). */
  written?: string
}

/** A stretch of source that holds no markup: code, or the frontmatter. */
export interface OpaqueRegion {
  range: Range
  kind: 'fenced' | 'indented' | 'inline' | 'frontmatter'
  /** For fenced code: whether a closing fence ends it (an unclosed fence runs to the end). */
  closed?: boolean
  /** For fenced code: the fence was never closed and ends where the markup it would swallow begins (see `fenceCut`). */
  cut?: boolean
  /** For fenced code: its closing fence has a close tag glued to it (```` ```</action> ````); the region ends at the fence. */
  glued?: boolean
}

/**
 * Elements of the plan format. Unclosed or stray tags of these names are
 * markup errors; any other tag name is prose (`Map<string>`, `<Button>`) and
 * is tolerated when it is not closed.
 */
const planElementNames = new Set([
  'task', 'name', 'files', 'action', 'verify', 'done', 'what-built', 'how-to-verify',
  'resume-signal', 'decision', 'context', 'options', 'option', 'pros', 'cons',
  'instructions', 'verification', 'read_first', 'acceptance_criteria', 'automated',
  'human-check', 'precondition', 'behavior', 'implementation', 'what-checked',
  'gate-results', 'violations', 'reversibility'
])

/** Whether a tag name is one of the plan format's elements (`action`, `how-to-verify`), not prose or HTML. */
export function isPlanElementName(name: string): boolean {
  return planElementNames.has(name)
}

/** Plan elements that hold elements rather than text: an unclosed tag inside any other is a mention in prose. */
const structuralElementNames = new Set(['task', 'verify', 'options', 'option'])

interface Tag {
  closing: boolean
  name: string
  range: Range
  attributes: Attribute[]
  selfClosing: boolean
}

const tagName = /[A-Za-z][A-Za-z0-9_:.-]*/y
/** A line's leading tag, `</action>` or `<task type="auto">`: its slash, if any, and its name (also read by the fence reading in document.ts). */
export const leadingTag = /^[ \t]*<(\/?)([A-Za-z][\w:.-]*)/
/** A close tag at the start of a text (`</action>`), with its name. */
export const closeTagAtStart = /^<\/([A-Za-z][\w:.-]*)>/
/** The tags of a line, open or close (`matchAll`): slash and name. */
export const tagsInLine = /<(\/?)([A-Za-z][\w:.-]*)/g
const attributeName = /[^\s"'<>/=]+/y
const unquotedValue = /[^\s"'=<>`]+/y
const blankLine = /\n[ \t]*\r?\n/y
const maxTagLength = 4000
/**
 * How deep elements nest before planlint stops reading deeper tags as
 * markup (real plans nest four or five deep): every walk over the elements
 * stays this shallow, however the file is written.
 */
export const maxElementDepth = 64

/** Reads a tag at `start` (a `<`); `undefined` when it is no tag, `'unterminated'` when the tag never ends. */
function readTag(text: string, start: number): Tag | 'unterminated' | undefined {
  let position = start + 1
  const closing = text[position] === '/'
  if (closing) position++
  tagName.lastIndex = position
  const nameMatch = tagName.exec(text)
  if (!nameMatch) return undefined
  const name = nameMatch[0]
  position += name.length
  const attributes: Attribute[] = []
  const limit = Math.min(text.length, start + maxTagLength)
  while (position < limit) {
    const char = text[position]
    if (char === '>') return {closing, name, range: [start, position + 1], attributes, selfClosing: false}
    if (char === '/' && text[position + 1] === '>') {
      return {closing, name, range: [start, position + 2], attributes, selfClosing: true}
    }
    if (/\s/.test(char)) {
      blankLine.lastIndex = position
      if (char === '\n' && blankLine.test(text)) return 'unterminated'
      position++
      continue
    }
    if (closing || char === '<') return 'unterminated'
    attributeName.lastIndex = position
    const nameFound = attributeName.exec(text)
    if (!nameFound) return 'unterminated'
    const attribute: Attribute = {
      name: nameFound[0],
      nameRange: [position, position + nameFound[0].length],
      value: undefined,
      valueRange: undefined,
      quote: '',
      range: [position, position + nameFound[0].length]
    }
    position += nameFound[0].length
    let look = position
    while (look < limit && (text[look] === ' ' || text[look] === '\t')) look++
    if (text[look] === '=') {
      look++
      while (look < limit && (text[look] === ' ' || text[look] === '\t')) look++
      const quote = text[look]
      if (quote === '"' || quote === "'") {
        const close = text.indexOf(quote, look + 1)
        if (close === -1 || close > limit) return 'unterminated'
        attribute.quote = quote
        attribute.value = text.slice(look + 1, close)
        attribute.valueRange = [look + 1, close]
        position = close + 1
      } else {
        unquotedValue.lastIndex = look
        const value = unquotedValue.exec(text)
        if (!value) return 'unterminated'
        attribute.value = value[0]
        attribute.valueRange = [look, look + value[0].length]
        position = look + value[0].length
      }
      attribute.range = [attribute.nameRange[0], position]
    }
    attributes.push(attribute)
  }
  return 'unterminated'
}

/** An attribute written in a template language: `{%`, `${size}`, `{{ size }}` (a value in braces alone is JSX, checked apart). */
function isTemplateSyntax(attribute: Attribute): boolean {
  return !/^[A-Za-z_:][\w:.-]*$/.test(attribute.name) || /^(?:\$\{|\{\{)/.test(attribute.value ?? '')
}

/** Length of the backtick run at `start`. */
function backtickRun(text: string, start: number): number {
  let end = start
  while (text[end] === '`') end++
  return end - start
}

/**
 * End of the code span opened by the backtick run at `start`, or -1. CommonMark
 * spans stop at a blank line; inside a task they stop at the end of the line,
 * since a lone backtick in a shell command must not hide the tags after it.
 */
function codeSpanEnd(text: string, start: number, length: number, oneLine: boolean): number {
  let position = start + length
  for (;;) {
    const next = text.indexOf('`', position)
    if (next === -1) return -1
    if ((oneLine ? /\n/ : /\n[ \t]*\r?\n/).test(text.slice(position, next))) return -1
    const run = backtickRun(text, next)
    if (run === length) return next + run
    position = next + run
  }
}

const describe = (element: Element) => `\`<${element.name}>\``

/**
 * Rebuilds the `<task>` blocks of a document from its source text, skipping
 * code, comments and the frontmatter. CommonMark splits a task into html,
 * paragraph and list nodes at blank lines, so this works on the text itself.
 */
export function parseMarkup(text: string, opaque: OpaqueRegion[], lineOf: (offset: number) => number, cutFences = false) {
  const tasks: Element[] = []
  /** Where fences that swallow markup should end (with `cutFences`): the caller reads the fences again and calls back. */
  const cuts: number[] = []
  const problems: MarkupProblem[] = []
  /** HTML comments outside code (directives such as `<!-- planlint-disable -->` live in them). */
  const comments: Range[] = []
  const regions = [...opaque].sort((a, b) => a.range[0] - b.range[0])
  let regionIndex = 0
  let stack: Element[] = []

  const report = (kind: MarkupProblemKind, message: string, range: Range, element?: Element, written?: string) =>
    problems.push({kind, message, range, element, ...(written ? {written} : {})})

  // A NUL byte makes the file binary to search tools (`grep -I`, `rg` skip it), so every check that greps it finds nothing.
  const nul = text.indexOf('\u0000')
  if (nul !== -1) {
    const count = text.split('\u0000').length - 1
    report('nul-bytes', `This file contains ${count === 1 ? 'a NUL byte here' : `${count} NUL bytes, the first here`}: it reads as binary or corrupted, and search tools skip binary files, so checks that grep it find nothing`, [nul, nul + 1])
  }

  /** Ends an element that was never closed, at `end`. */
  const cutOff = (element: Element, end: number) => {
    element.range = [element.range[0], end]
    element.contentRange = [element.contentRange[0], Math.max(element.contentRange[0], end)]
  }

  /**
   * Pops elements above `depth`. Plan elements among them are unclosed; other
   * tags are prose and dissolve, and so do plan tag names inside an element's
   * text (`Then run the tests in <behavior>`, `git add <files>`), tag names
   * in a sentence (`See <how-to-verify> above`) and what opens inside such a
   * mention (`put it in <verify><automated>.`).
   */
  const unwind = (depth: number, end: number, closer: string, quiet = false) => {
    const popped = stack.splice(depth)
    const mentions = new Set<Element>()
    for (const element of popped) {
      const parent = element.parent
      const inText = parent !== undefined && (mentions.has(parent) || !structuralElementNames.has(parent.name))
      if (!planElementNames.has(element.name) || inText || followsProse(element)) mentions.add(element)
    }
    for (const element of popped.reverse()) {
      cutOff(element, end)
      if (!mentions.has(element)) {
        if (!quiet) report('unclosed', `${describe(element)} is not closed before ${closer}`, element.openTag, element)
      } else if (element.parent) {
        const siblings = element.parent.children
        siblings.splice(siblings.indexOf(element), 1, ...element.children)
        for (const child of element.children) child.parent = element.parent
      }
    }
  }

  /** Whether an element's open tag comes after words on its line (markup starts a line or follows a tag or a list marker). */
  const followsProse = (element: Element) => {
    const before = text.slice(text.lastIndexOf('\n', element.openTag[0] - 1) + 1, element.openTag[0]).trim()
    return before !== '' && !before.endsWith('>') && !/^(?:[-*+]|\d+[.)])$/.test(before)
  }

  /** Ends the open task at `end`; `quiet` when the end of the document cuts it off, which the task's own message says for all it holds. */
  const endTask = (end: number, closer: string, quiet = false) => {
    const task = stack[0]
    unwind(1, end, closer, quiet)
    stack = []
    tasks.push(task)
    return task
  }

  const open = (tag: Tag): Element => {
    const parent = stack[stack.length - 1]
    const element: Element = {
      name: tag.name,
      range: [tag.range[0], tag.range[1]],
      openTag: tag.range,
      closeTag: tag.selfClosing ? tag.range : undefined,
      contentRange: [tag.range[1], tag.range[1]],
      attributes: tag.attributes,
      children: [],
      parent
    }
    if (parent) parent.children.push(element)
    checkAttributes(element)
    if (!tag.selfClosing) stack.push(element)
    return element
  }

  const checkAttributes = (element: Element) => {
    // Attributes of prose tags (`<Si a la vez>`, `<UsageSummary x ?? null>`) are words, not markup, and
    // a tag with template syntax (Jinja's `{% if %}`, Lit's `value=${x}`) is template code.
    if (!planElementNames.has(element.name) || element.attributes.some(isTemplateSyntax)) return
    const seen = new Set<string>()
    for (const attribute of element.attributes) {
      if (seen.has(attribute.name)) {
        report('duplicate-attribute', `Attribute \`${attribute.name}\` is given twice on ${describe(element)}`, attribute.range, element)
      }
      seen.add(attribute.name)
      // `key={item.id}` is JSX in a code sample, not plan markup.
      if (attribute.value !== undefined && attribute.quote === '' && !attribute.value.startsWith('{')) {
        report('unquoted-attribute', `Attribute \`${attribute.name}\` on ${describe(element)} is not quoted`, attribute.range, element)
      }
    }
  }

  /** Tasks whose opening tag a reported fence swallowed: their `</task>` is not reported again. */
  let swallowedStarts = 0
  /** Opening tags not read as elements because they nest too deep, by name: their closing tags are skipped too. */
  const tooDeep = new Map<string, number>()
  const candidates = /[<`]/g
  let position = 0
  while (position < text.length) {
    candidates.lastIndex = position
    const found = candidates.exec(text)
    if (!found) break
    const at = found.index
    while (regionIndex < regions.length && regions[regionIndex].range[1] <= at) regionIndex++
    const region = regions[regionIndex]
    if (region && region.range[0] <= at) {
      const multiLineSpan = region.kind === 'inline' && text.slice(region.range[0], region.range[1]).includes('\n')
      if (stack.length > 0 && (region.kind === 'indented' || multiLineSpan)) {
        // Inside a task, indentation after a blank line is the task's own text, not a code example,
        // and a code span that runs over lines is a lone backtick: the backticks are read below, line by line.
      } else {
        if (region.kind === 'fenced') checkFence(region)
        position = region.range[1]
        continue
      }
    }
    if (text[at] === '`') {
      const length = backtickRun(text, at)
      const end = codeSpanEnd(text, at, length, stack.length > 0)
      position = end === -1 ? at + length : end
      continue
    }
    if (text.startsWith('<!--', at)) {
      const end = text.indexOf('-->', at + 4)
      position = end === -1 ? text.length : end + 3
      if (end !== -1) comments.push([at, position])
      continue
    }
    const tag = readTag(text, at)
    if (tag === undefined) {
      position = at + 1
      continue
    }
    if (tag === 'unterminated') {
      // A `>` later on the line ends it: what would not read as attributes is template code (`{% if x %}`).
      const lineEnd = text.indexOf('\n', at)
      if (text.slice(at, lineEnd === -1 ? text.length : lineEnd).includes('>')) {
        position = at + 1
        continue
      }
      const name = /^<\/?([A-Za-z][\w:.-]*)/.exec(text.slice(at, at + 100))?.[1] ?? ''
      if (name === 'task' || (stack.length > 0 && planElementNames.has(name))) {
        report('unterminated-tag', `The tag \`<${name}\` has no closing \`>\``, [at, at + name.length + 1])
      }
      position = at + 1
      continue
    }
    position = tag.range[1]
    if (stack.length === 0) {
      if (tag.name !== 'task') continue
      if (tag.closing) {
        if (swallowedStarts > 0) swallowedStarts--
        else report('stray-close', '`</task>` closes no open `<task>`', tag.range)
      } else if (tag.selfClosing) {
        tasks.push(open(tag))
      } else {
        open(tag)
      }
      continue
    }
    if (tag.closing && (tooDeep.get(tag.name) ?? 0) > 0) {
      tooDeep.set(tag.name, tooDeep.get(tag.name)! - 1)
      continue
    }
    if (tag.closing) {
      let depth = stack.length - 1
      while (depth >= 0 && stack[depth].name !== tag.name) depth--
      if (depth === -1) {
        const innermost = stack[stack.length - 1]
        // `<files>a.ts</name>`: a slip of the leaf element it ends, which it closes.
        if (planElementNames.has(tag.name) && innermost && innermost.name !== 'task' && innermost.children.length === 0 && planElementNames.has(innermost.name)) {
          report('mistyped-close', `\`</${tag.name}>\` ends \`<${innermost.name}>\` (opened on line ${lineOf(innermost.openTag[0])}); write \`</${innermost.name}>\``, tag.range, innermost, tag.name)
          stack.pop()
          innermost.closeTag = tag.range
          innermost.range = [innermost.range[0], tag.range[1]]
          innermost.contentRange = [innermost.openTag[1], tag.range[0]]
        } else if (planElementNames.has(tag.name)) {
          report('stray-close', `\`</${tag.name}>\` closes no open \`<${tag.name}>\` in this task`, tag.range)
        }
        continue
      }
      unwind(depth + 1, tag.range[0], `\`</${tag.name}>\` (line ${lineOf(tag.range[0])})`)
      const element = stack.pop()!
      element.closeTag = tag.range
      element.range = [element.range[0], tag.range[1]]
      element.contentRange = [element.openTag[1], tag.range[0]]
      if (stack.length === 0) tasks.push(element)
      continue
    }
    if (tag.name === 'task') {
      const previous = stack[0]
      report('nested-task', `\`<task>\` opened on line ${lineOf(previous.range[0])} is not closed before the next \`<task>\``, previous.openTag, previous)
      endTask(tag.range[0], `the next \`<task>\` (line ${lineOf(tag.range[0])})`)
      if (tag.selfClosing) tasks.push(open(tag))
      else open(tag)
      continue
    }
    // `<action>` in the text of an `<action>` ("no fences in <action>") is a mention: it must not take the real close tag.
    const innermost = stack[stack.length - 1]
    if (!structuralElementNames.has(innermost.name) && stack.some((element) => element.name === tag.name)) continue
    if (stack.length >= maxElementDepth && !tag.selfClosing) {
      if (tooDeep.size === 0) {
        report('nested-too-deep', `Elements nest more than ${maxElementDepth} deep here; planlint reads the tags below this depth as text`, tag.range)
      }
      tooDeep.set(tag.name, (tooDeep.get(tag.name) ?? 0) + 1)
      continue
    }
    open(tag)
  }
  if (stack.length > 0) {
    const task = stack[0]
    report('unclosed', `${describe(task)} is not closed before the end of the document`, task.openTag, task)
    endTask(text.length, 'the end of the document', true)
  }
  return {tasks, problems, comments, cuts}

  function checkFence(region: OpaqueRegion) {
    if (region.glued) {
      const tag = closeTagAtStart.exec(text.slice(region.range[1], region.range[1] + 100))?.[0] ?? ''
      report(
        'glued-fence',
        `This close tag is glued to the closing fence before it: the agent reads both, but a Markdown reader does not end the code there and takes the rest of the plan for code; put \`${tag}\` on a line of its own`,
        [region.range[1], region.range[1] + tag.length]
      )
      return
    }
    if (region.cut) {
      const fence = text.slice(region.range[0], lineEndAt(text, region.range[0])).trimEnd()
      const marker = /[`~]{3,}/.exec(fence)?.[0] ?? '```'
      const tag = /^[ \t]*<(\/?[A-Za-z][\w:.-]*)/.exec(text.slice(region.range[1], region.range[1] + 100))?.[1] ?? 'task'
      const close = `close it with \`\` ${marker} \`\` before that line`
      // A bare fence opens few blocks on purpose: one left open is most often a leftover.
      const fix = fence.endsWith(marker) ? `remove it if it is stray, or ${close}` : `${close}, or remove it if it is stray`
      report(
        'swallowed-tasks',
        `This code fence is not closed before \`<${tag}>\` (line ${lineOf(region.range[1])}), so a Markdown reader takes the rest of the plan for code; ${fix}`,
        [region.range[0], region.range[0] + fence.length]
      )
      return
    }
    if (cutFences) {
      const cut = fenceCut(text, region, stack.map((element) => element.name))
      if (cut !== undefined) {
        cuts.push(cut)
        return
      }
    }
    const content = text.slice(region.range[0], region.range[1])
    const opens = content.match(/(^|\n)[ \t]*<task[\s>]/g)?.length ?? 0
    const closes = content.match(/<\/task>/g)?.length ?? 0
    // A quoted example holds whole tasks; a stray fence holds a task's start or end without the other. Inside a
    // task, a fence that holds as many ends as starts is an example when a start comes first (not `</task>…<task>`).
    const firstOpen = content.search(/(?:^|\n)[ \t]*<task[\s>]/)
    const firstClose = content.indexOf('</task>')
    const quotesTasks = firstOpen !== -1 && (firstClose === -1 || firstOpen < firstClose)
    if (opens + closes > 0 && (!region.closed || opens !== closes || (stack.length > 0 && !quotesTasks))) {
      // The `</task>` of a task whose start the fence holds closes nothing: the fence's doing, not another problem.
      if (stack.length === 0) swallowedStarts += Math.max(0, opens - closes)
      const fence = text.slice(region.range[0], lineEndAt(text, region.range[0])).trimEnd()
      report(
        'swallowed-tasks',
        `This code fence ${region.closed ? `runs to line ${lineOf(region.range[1])}` : 'is never closed'} and swallows \`<task>\` markup: what it holds is code, not tasks; close or remove the stray fence`,
        [region.range[0], region.range[0] + fence.length]
      )
    }
  }
}

/** Where the line that holds `offset` ends, before its line break (`\n`, `\r\n` or a lone `\r`). */
function lineEndAt(text: string, offset: number): number {
  return lineRanges(text, offset).next().value?.[1] ?? text.length
}

/**
 * Where a fence that swallows real markup ends as the agent reads the plan:
 * the line start of the first close tag, at the start of a line, of an
 * element open around the fence that the fence itself did not open (a fence
 * left open in `<action>` ends at `</action>`); outside a task, the first
 * line-start close tag before any `<task>` of an element the fence did not
 * open (a stray fence in `<interfaces>` ends at `</interfaces>`), else the
 * first `<task>` line, of an unclosed fence, or of one that holds a task's
 * start and end in unequal numbers. A quoted example (whole tasks, or a fragment
 * that closes nothing open around it) is not cut.
 */
function fenceCut(text: string, region: OpaqueRegion, openNames: string[]): number | undefined {
  const openedInFence = new Map<string, number>()
  let firstTaskLine: number | undefined
  /** Outside a task, the first line-start close tag of an element the fence did not open (`</interfaces>`): where the excerpt it belongs to ends. */
  let foreignClose: number | undefined
  let opens = 0
  let closes = 0
  // The lines after the fence's own, each found once: searching for the next `\n` from each fence would scan a text with lone CRs to its end every time.
  const lines = lineRanges(text, region.range[0])
  lines.next()
  for (const [lineStart, end] of lines) {
    if (lineStart >= region.range[1]) break
    const line = text.slice(lineStart, Math.min(end, region.range[1]))
    const leading = leadingTag.exec(line)
    if (leading?.[1] === '/' && !openedInFence.get(leading[2])) {
      if (openNames.includes(leading[2])) return lineStart
      if (firstTaskLine === undefined) foreignClose ??= lineStart
    }
    if (leading?.[1] === '' && leading[2] === 'task') {
      firstTaskLine ??= lineStart
      opens++
    }
    for (const tag of line.matchAll(tagsInLine)) {
      const count = openedInFence.get(tag[2]) ?? 0
      if (tag[1] === '') openedInFence.set(tag[2], count + 1)
      else {
        if (count > 0) openedInFence.set(tag[2], count - 1)
        if (tag[2] === 'task') closes++
      }
    }
  }
  if (openNames.length > 0 || firstTaskLine === undefined) return undefined
  if (foreignClose !== undefined && (!region.closed || opens !== closes)) return foreignClose
  return !region.closed || (closes > 0 && opens !== closes) ? firstTaskLine : undefined
}

/** The attribute named `name`, if the element has it. */
export function attribute(element: Element, name: string): Attribute | undefined {
  return element.attributes.find((candidate) => candidate.name === name)
}

/** The first direct child named `name`, or one that an unclosed child swallowed. */
export function child(element: Element, name: string): Element | undefined {
  const own = element.children.find((candidate) => candidate.name === name)
  if (own) return own
  // An element cut off by a wrong closing tag (`<files>a.ts</name>`) swallows its later siblings; they are still the parent's.
  for (const cutOff of element.children) {
    if (cutOff.closeTag === undefined) {
      const swallowed = child(cutOff, name)
      if (swallowed) return swallowed
    }
  }
  return undefined
}

/** Every element below `element`, depth first. */
export function descendants(element: Element): Element[] {
  // Iterative, into an array: rules ask every task for its elements, and a generator's resumptions cost more than the walk.
  const found: Element[] = []
  const pending = [...element.children].reverse()
  while (pending.length > 0) {
    const candidate = pending.pop()!
    found.push(candidate)
    for (let index = candidate.children.length - 1; index >= 0; index--) pending.push(candidate.children[index])
  }
  return found
}
