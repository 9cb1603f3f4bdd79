/**
 * A PDF page's text with its headings and tables kept. Headings are the short blocks set larger
 * than the body text (one level per size over the whole document). pdf.js gives a page's text as runs placed on
 * the page; joined in order, a price list's row "Dozen eggs ········ £4.90" reads "Dozen eggs
 * £4.90", the rows run together into one paragraph, and a cell wrapped over two lines is split
 * from its row. Here the cells of a row (blocks of lines side by side in one band of the page,
 * apart by wide gaps, written one after the other) are written as a Markdown table row,
 * "| Dozen eggs | £4.90 |", each cell with all its lines, so the chunker reads each row as a row
 * under its header ("Extra: Dozen eggs; Price: £4.90"), as it reads a web page's table. Other
 * text is joined as before.
 */

/** One text item of a page (pdf.js `TextItem`): its text, its position and font size in points, and whether a line ends after it. */
export interface PdfTextItem {
  str: string;
  x: number;
  y: number;
  width: number;
  size: number;
  hasEOL: boolean;
}

/** A gap between two pieces of text on one baseline wider than this many font sizes separates two cells. */
const CELL_GAP = 1;
/** Texts whose baselines differ by less than this share of the font size are on one line. */
const SAME_LINE = 0.3;
/** The next line of a paragraph or of a cell sits at most this many font sizes below the line before it (a table's next row further). */
const WRAPPED_LINE = 1.6;
/** Lines whose font sizes differ by less than this share are set in one size (a heading's is larger). */
const SAME_SIZE = 0.05;
/** A heading is set at least this many times the size of the page's body text. */
const HEADING_SIZE = 1.15;
/** A heading has at most this many words. */
const HEADING_WORDS = 15;

/** A line starting within this many points of the left edge of the line above can continue it. */
const ALIGNED = 2;

interface Run {
  text: string;
  x: number;
  end: number;
  y: number;
  size: number;
  /** The items it is made of. */
  items: number[];
}

/** Text on one baseline with no wide gap, in the page's order. */
function runsOf(items: readonly PdfTextItem[]): Run[] {
  const runs: Run[] = [];
  let current: Run | undefined;
  let spaced = false;
  items.forEach((item, index) => {
    if (item.str.trim() === '') {
      spaced ||= item.str !== '';
      if (item.hasEOL) current = undefined;
      return;
    }
    const size = item.size || 1;
    const gap = current ? item.x - current.end : 0;
    if (current && Math.abs(item.y - current.y) <= SAME_LINE * size && gap <= CELL_GAP * size && gap >= -size) {
      current.text += spaced || gap > 0.2 * size ? ` ${item.str.trimStart()}` : item.str;
      current.end = Math.max(current.end, item.x + item.width);
      current.items.push(index);
    } else {
      current = { text: item.str.trim(), x: item.x, end: item.x + item.width, y: item.y, size, items: [index] };
      runs.push(current);
    }
    current.text = current.text.trimEnd();
    spaced = /\s$/.test(item.str);
    if (item.hasEOL) current = undefined;
  });
  return runs;
}

/** A cell: lines written one after the other, each right below the one before at the same left edge. */
interface Stack { runs: Run[]; x: number; end: number; top: number; bottom: number; size: number }

/** The page's runs as stacks of lines, in the page's order: a paragraph, a heading, or a table's cell with its wrapped lines. */
function stacksOf(runs: readonly Run[]): Stack[] {
  const stacks: Stack[] = [];
  for (const run of runs) {
    const stack = stacks.at(-1);
    const below = stack ? stack.bottom - run.y : 0;
    if (stack && Math.abs(run.x - stack.x) <= ALIGNED && Math.abs(run.size - stack.size) <= SAME_SIZE * stack.size && below > SAME_LINE * run.size && below <= WRAPPED_LINE * run.size) {
      stack.runs.push(run);
      stack.bottom = run.y;
      stack.end = Math.max(stack.end, run.end);
    } else {
      stacks.push({ runs: [run], x: run.x, end: run.end, top: run.y, bottom: run.y, size: run.size });
    }
  }
  return stacks;
}

/** A table row: its cells left to right. */
interface Row { cells: Stack[] }

/**
 * Stacks side by side, written one after the other left to right, whose lines share the same
 * band of the page: a row, whatever line of its band each cell's text is set on (a cell centred
 * beside a taller one). A stack alone is text, not a row.
 */
function rowsOf(stacks: readonly Stack[]): Row[] {
  const rows: Row[] = [];
  let cells: Stack[] = [];
  const close = () => {
    if (cells.length > 1) rows.push({ cells });
    cells = [];
  };
  for (const stack of stacks) {
    const last = cells.at(-1);
    const top = Math.max(...cells.map((cell) => cell.top)), bottom = Math.min(...cells.map((cell) => cell.bottom));
    const tolerance = SAME_LINE * stack.size;
    const beside = last !== undefined && stack.x - last.end > CELL_GAP * stack.size && stack.top >= bottom - tolerance && stack.bottom <= top + tolerance;
    if (!beside) close();
    cells.push(stack);
  }
  close();
  return rows;
}

/** A row that names its columns: no figures, a few words a cell. */
const isHeader = (cells: readonly string[]) => cells.every((cell) => !/\d/.test(cell) && cell.split(/\s+/).length <= 5);

const cellText = (cell: Stack) => cell.runs.map((run) => run.text).join(' ').replace(/\|/g, '/').replace(/\s+/g, ' ').trim();

/** The sizes a document's text is set in: its body text's, and its headings', largest first. */
export interface TypeSizes {
  body: number;
  headings: number[];
}

const rounded = (size: number) => Math.round(size * 2) / 2;

/** A page's text items with their runs (text on one baseline) and their blocks of lines, worked out once per page. */
export interface PageLayout {
  items: readonly PdfTextItem[];
  runs: Run[];
  stacks: Stack[];
}

export function layOut(items: readonly PdfTextItem[]): PageLayout {
  const runs = runsOf(items);
  return { items, runs, stacks: stacksOf(runs) };
}

/** The size most of a document's letters are set in, and the larger sizes of its short blocks (its headings). */
export function typeSizes(pages: readonly PageLayout[]): TypeSizes {
  const letters = new Map<number, number>();
  for (const run of pages.flatMap((page) => page.runs)) letters.set(rounded(run.size), (letters.get(rounded(run.size)) ?? 0) + run.text.length);
  const body = [...letters].reduce((best, entry) => (entry[1] > best[1] ? entry : best), [0, 0])[0];
  const headings = [...new Set(pages.flatMap((page) => page.stacks).filter((stack) => isHeading(stack, body)).map((stack) => rounded(stack.size)))]
    .sort((a, b) => b - a);
  return { body, headings };
}

/** A short block set larger than the body text, not ending as a sentence or a clause does. */
const isHeading = (stack: Stack, body: number) => stack.size >= HEADING_SIZE * body && !stack.runs.some((run) => /[.,;]$/.test(run.text))
  && stack.runs.map((run) => run.text).join(' ').split(/\s+/).length <= HEADING_WORDS;

/**
 * The page's headings as Markdown headings, the document's largest size first ("#", then "##",
 * "###"). A heading tells what the text under it is about; plain lines only guess at it (a short
 * line standing alone).
 */
function headingsOf(stacks: readonly Stack[], sizes: TypeSizes): Map<Stack, string> {
  return new Map(stacks.filter((stack) => isHeading(stack, sizes.body)).map((stack) => {
    const level = Math.min(3, Math.max(1, sizes.headings.indexOf(rounded(stack.size)) + 1));
    return [stack, `${'#'.repeat(level)} ${stack.runs.map((run) => run.text).join(' ')}`];
  }));
}

/**
 * The page's text: its items joined in order (a line ending where pdf.js ends one), each table
 * row on a line of its own as `| cell | cell |`, each heading (larger type) as a Markdown heading
 * (`sizes`: the whole document's, so that a heading has one level on every page).
 * A table whose first row does not name its columns gets an empty header, so that no row is read
 * as one.
 */
export function pageText(page: PageLayout, sizes: TypeSizes = typeSizes([page])): string {
  const { items, stacks } = page;
  const rows = rowsOf(stacks);
  const rowAt = new Map<number, Row>();
  for (const row of rows) for (const cell of row.cells) for (const run of cell.runs) for (const item of run.items) rowAt.set(item, row);
  const headingAt = new Map<number, Stack>();
  const inTables = new Set(rows.flatMap((row) => row.cells));
  const headings = headingsOf(stacks.filter((stack) => !inTables.has(stack)), sizes);
  for (const stack of headings.keys()) for (const run of stack.runs) for (const item of run.items) headingAt.set(item, stack);
  const written = new Set<Row | Stack>();
  let text = '';
  /** The rows of the table being written, to give it a header. */
  let table: { at: number; rows: Row[] } | undefined;
  const endTable = () => {
    if (!table) return;
    const texts = table.rows.map((row) => row.cells.map(cellText));
    const [first] = texts;
    if (texts.length === 1) {
      // One row is no table (two columns of text side by side read as one): each cell's lines, a cell after the other.
      const lines = table.rows[0]!.cells.flatMap((cell) => cell.runs.map((run) => run.text)).join('\n');
      text = `${text.slice(0, table.at)}${lines}\n${text.slice(table.at).replace(/^[^\n]*\n/, '')}`;
    } else if (!isHeader(first!)) {
      text = `${text.slice(0, table.at)}|${' |'.repeat(first!.length)}\n${text.slice(table.at)}`;
    } else {
      // A header short of cells names the columns on the right: the first column holds the rows' names.
      const missing = Math.max(...texts.map((row) => row.length)) - first!.length;
      if (missing > 0) text = `${text.slice(0, table.at)}|${' |'.repeat(missing)}${text.slice(table.at + 1)}`;
    }
    table = undefined;
  };
  items.forEach((item, index) => {
    const heading = headingAt.get(index);
    if (heading) {
      if (table) endTable();
      if (written.has(heading)) return;
      written.add(heading);
      text += `${text === '' || text.endsWith('\n') ? '' : '\n'}${headings.get(heading)}\n`;
      return;
    }
    const row = rowAt.get(index);
    if (!row) {
      // Blanks between a table's rows are the gaps between its cells.
      if (item.str.trim() === '' && table) return;
      if (table) endTable();
      text += item.str + (item.hasEOL ? '\n' : '');
      return;
    }
    if (written.has(row)) return;
    written.add(row);
    if (text !== '' && !text.endsWith('\n')) text += '\n';
    table ??= { at: text.length, rows: [] };
    table.rows.push(row);
    text += `| ${row.cells.map(cellText).join(' | ')} |\n`;
  });
  endTable();
  return text.replace(/\n{3,}/g, '\n\n').trim();
}
