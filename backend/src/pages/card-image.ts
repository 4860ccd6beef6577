import { createHash } from 'node:crypto';
import { OUTSIDE } from '@techit/contract/limits';
import sharp from 'sharp';
import { escapeHtml } from './html';

/**
 * The picture link previews show for a post without one of its own: OUTSIDE.cardImage (1200×630,
 * the size Open Graph and Twitter's large card ask for), drawn by sharp (librsvg) from an SVG. The
 * light theme's colours (frontend/src/features/theme/theme-provider.tsx: the page, the cards, the
 * text and the brand's text blue).
 */
const COLOURS = {
  page: '#f5f5f5',
  card: '#ffffff',
  border: '#f0f0f0',
  text: '#1f1f1f', // rgba(0, 0, 0, 0.88) on white
  secondary: '#666666', // rgba(0, 0, 0, 0.6) on white
  primary: '#1668dc',
};

/** Fonts librsvg finds through fontconfig; DejaVu and Liberation ship with most Linux images. */
const FONT = "'DejaVu Sans', 'Liberation Sans', Arial, sans-serif";

/** Changes when the drawing changes, so every card's URL changes with it and caches let go. */
const DESIGN_VERSION = '1';

const TITLE_SIZE = 64;
const TITLE_LINE = 80;
const TITLE_LINES_MAX = 4;
/** About how many characters of the title font fit in the card's text width (1,000 px). */
const LINE_CHARS = 28;

export interface CardInput {
  title: string;
  author: string;
  site: string;
}

/**
 * The version in a card's URL: a hash of everything drawn on it, so an edited title (or a new
 * design) is a new URL and an old URL's image never changes (it is served as immutable).
 */
export function cardVersion(card: CardInput): string {
  return createHash('sha256')
    .update(JSON.stringify([DESIGN_VERSION, card.title, card.author, card.site]))
    .digest('base64url')
    .slice(0, 16);
}

/** The title in lines of at most LINE_CHARS, a too long word cut, the last line ending in … when more is left. */
export function wrapTitle(title: string): string[] {
  const words = title
    .replace(/\s+/g, ' ')
    .trim()
    .split(' ')
    .flatMap((word) => {
      const parts: string[] = [];
      for (let i = 0; i < word.length; i += LINE_CHARS) parts.push(word.slice(i, i + LINE_CHARS));
      return parts;
    });
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line && line.length + 1 + word.length > LINE_CHARS) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  if (lines.length <= TITLE_LINES_MAX) return lines;
  const kept = lines.slice(0, TITLE_LINES_MAX);
  const last = kept[TITLE_LINES_MAX - 1];
  kept[TITLE_LINES_MAX - 1] = `${last.length >= LINE_CHARS ? last.slice(0, LINE_CHARS - 1) : last}…`;
  return kept;
}

export function cardSvg(card: CardInput): string {
  const { width, height } = OUTSIDE.cardImage;
  const lines = wrapTitle(card.title);
  const top = 150 + ((TITLE_LINES_MAX - lines.length) * TITLE_LINE) / 2;
  const title = lines
    .map((line, index) => `<tspan x="100" y="${top + index * TITLE_LINE}">${escapeHtml(line)}</tspan>`)
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
<rect width="${width}" height="${height}" fill="${COLOURS.page}"/>
<rect x="40" y="40" width="${width - 80}" height="${height - 80}" rx="24" fill="${COLOURS.card}" stroke="${COLOURS.border}" stroke-width="2"/>
<rect x="40" y="40" width="16" height="${height - 80}" fill="${COLOURS.primary}"/>
<text font-family="${FONT}" font-size="${TITLE_SIZE}" font-weight="bold" fill="${COLOURS.text}">${title}</text>
<text x="100" y="${height - 90}" font-family="${FONT}" font-size="34" fill="${COLOURS.secondary}">${escapeHtml(card.author)}</text>
<text x="${width - 100}" y="${height - 90}" text-anchor="end" font-family="${FONT}" font-size="40" font-weight="bold" fill="${COLOURS.primary}">${escapeHtml(card.site)}</text>
</svg>`;
}

/** The card as PNG (flat colours and text: smaller and sharper than JPEG). */
export function drawCard(card: CardInput): Promise<Buffer> {
  return sharp(Buffer.from(cardSvg(card)))
    .png({ compressionLevel: 9, palette: true })
    .toBuffer();
}
