// The documentation a user gets with the package: every link in the README
// and in each Markdown file the tarball ships resolves where it is read. A
// relative link must name a file inside the tarball (npm's own file list,
// from `npm pack --dry-run`), and an anchor a heading of that file; a link to
// this repository's own tree must name a file that exists in it.
import { describe, it, expect, beforeAll } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const REPO_TREE = 'https://github.com/tensorcast/tensorcast/blob/main/';

let files;
beforeAll(() => {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  files = new Set(JSON.parse(out)[0].files.map((f) => f.path));
}, 60_000);

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to '-'. */
const slug = (h) => h.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');

/** The links of a Markdown text, outside fenced code and inline code. */
function links(text) {
  const prose = text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
}

function anchors(text) {
  const prose = text.replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...prose.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1])));
}

describe('the packed documentation', () => {
  it('ships the README, the changelog and every guide the README links to', () => {
    for (const f of ['README.md', 'CHANGELOG.md', 'docs/broadcast-rules.md', 'docs/expressions.md', 'docs/explorer.md', 'docs/boundary.md']) {
      expect(files.has(f), f).toBe(true);
    }
  });

  it('every link of every shipped Markdown file resolves in the tarball (or in the repository, for links to it)', () => {
    const md = [...files].filter((f) => f.endsWith('.md'));
    expect(md.length).toBeGreaterThan(2);
    let checked = 0;
    for (const f of md) {
      const text = readFileSync(path.join(root, f), 'utf8');
      for (const link of links(text)) {
        const where = `${f}: ${link}`;
        if (link.startsWith(REPO_TREE)) {
          const target = link.slice(REPO_TREE.length).split('#')[0];
          expect(existsSync(path.join(root, target)), where).toBe(true);
          checked++;
          continue;
        }
        if (/^[a-z]+:/i.test(link)) continue; // another site, a mailto:
        const [p, hash] = link.split('#');
        const target = p === '' ? f : path.posix.normalize(path.posix.join(path.posix.dirname(f), p));
        expect(files.has(target), `${where}: ${target} is not in the tarball`).toBe(true);
        if (hash !== undefined && target.endsWith('.md')) {
          expect(anchors(readFileSync(path.join(root, target), 'utf8')).has(hash), `${where}: no heading #${hash}`).toBe(true);
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('the checker sees a broken link (it is not vacuous)', () => {
    expect(links('see [a](docs/nope.md) and `[b](x.md)`\n```\n[c](y.md)\n```')).toEqual(['docs/nope.md']);
    expect(files.has('CONTRIBUTING.md')).toBe(false);
    expect(anchors('# Errors\n## 8. Errors\n').has('8-errors')).toBe(true);
  });
});
