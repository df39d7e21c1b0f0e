// Reading and rendering our Markdown pages, one way for the docs check and for the pages served with the
// Excel add-in: marked (GFM) with GitHub's heading ids (marked-gfm-heading-id, github-slugger), so an anchor
// that resolves on GitHub resolves in the served page and in the check alike.
import path from 'node:path';
import { Marked } from 'marked';
import { gfmHeadingId, getHeadingList } from 'marked-gfm-heading-id';

/** The heading ids of a page, as GitHub makes them (`## DCHUB.QUEUE` → `dchubqueue`). */
export function headingIds(markdown) {
  const marked = new Marked();
  marked.use(gfmHeadingId());
  marked.parse(markdown);
  return getHeadingList().map((h) => h.id);
}

/** Every link and image target of a page (inline and reference links; code spans and blocks are not links). */
export function linkTargets(markdown) {
  const targets = [];
  const marked = new Marked();
  marked.parse(markdown, {
    walkTokens: (token) => {
      if ((token.type === 'link' || token.type === 'image') && token.href)
        targets.push({ href: token.href, text: token.text });
    },
  });
  return targets;
}

/** True for a target inside the repository (not a URL of another site, not a mail address). */
export const isRelative = (href) => !/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith('//');

/** Where a page points outside the repository: links that leave it, and paths (in text or code) a clone lacks. */
export function outsideRefs(page, markdown) {
  const problems = [];
  for (const { href } of linkTargets(markdown)) {
    if (/^file:/i.test(href)) problems.push(`${page}: ${href} — a file of one machine`);
    if (!isRelative(href)) continue;
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(page), href.split('#')[0]));
    if (target.startsWith('../') || path.posix.isAbsolute(href))
      problems.push(`${page}: ${href} — outside the repository`);
  }
  const lines = markdown.split('\n');
  lines.forEach((line, i) => {
    for (const m of line.matchAll(/(?:^|[\s`([])((?:\.\.\/)*shared\/[\w./-]*|\/work\/[\w./-]*)/g))
      problems.push(`${page}:${i + 1}: ${m[1]} — a path outside the repository (a clone does not have it)`);
  });
  return problems;
}

const escapeHtml = (s) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/**
 * A docs page as a standalone HTML page, served beside the add-in (`docs/<name>.html`): links to other pages of
 * docs/ point at their HTML; a link out of docs/ (the repository's files) keeps its text and loses its target,
 * since the hosted add-in does not serve the repository.
 */
export function renderPage(markdown, { title }) {
  const marked = new Marked({ gfm: true });
  marked.use(gfmHeadingId());
  marked.use({
    walkTokens: (token) => {
      if (token.type !== 'link' || !isRelative(token.href)) return;
      const [file, hash] = token.href.split('#');
      if (file === '') return;
      if (file.startsWith('../') || file.includes('/')) token.href = '';
      else if (file.endsWith('.md')) token.href = `${file.slice(0, -3)}.html${hash ? `#${hash}` : ''}`;
    },
    renderer: {
      link(token) {
        const text = this.parser.parseInline(token.tokens);
        return token.href ? `<a href="${escapeHtml(token.href)}">${text}</a>` : `<span>${text}</span>`;
      },
    },
  });
  const body = marked.parse(markdown);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #1b1b1b; }
code, pre { font: 13px/1.4 ui-monospace, Consolas, monospace; background: #f4f4f4; }
pre { padding: .75rem; overflow-x: auto; }
table { border-collapse: collapse; margin: 1rem 0; } th, td { border: 1px solid #ddd; padding: .3rem .5rem; text-align: left; vertical-align: top; }
img { max-width: 100%; } h3 { margin-top: 2rem; } :target { background: #fff5d6; }
</style>
</head>
<body>
${body}
</body>
</html>
`;
}
