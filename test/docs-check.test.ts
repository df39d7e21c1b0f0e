import { describe, expect, it } from 'vitest';
// @ts-expect-error: a script of the repository, plain JavaScript without types
import { outsideRefs } from '../scripts/docs/markdown.mjs';

const check = (page: string, md: string) => outsideRefs(page, md) as string[];

describe('the docs check: nothing outside the repository', () => {
  it('passes links and paths inside the repository', () => {
    const md = 'See [cli](cli.md#flags), [the README](../README.md), `core/src/cli`, <https://dchub.cloud>.';
    expect(check('docs/x.md', md)).toEqual([]);
  });

  it('fails a link that leaves the repository, a file: link, and an absolute path', () => {
    const md = '[up](../../other/README.md) and [mine](file:///home/me/a.md) and [abs](/etc/hosts)';
    expect(check('docs/x.md', md)).toEqual([
      expect.stringContaining('../../other/README.md — outside the repository'),
      expect.stringContaining('file:///home/me/a.md — a file of one machine'),
      expect.stringContaining('/etc/hosts — outside the repository'),
    ]);
  });

  it('fails the shared/ folder a clone lacks, and a path of one machine, in text or code', () => {
    const md = 'From `shared/reference/notes.md`.\nAnd ../shared/spec here, and /work/main/docs.';
    expect(check('docs/x.md', md)).toEqual([
      expect.stringMatching(/^docs\/x\.md:1: shared\/reference\/notes\.md/),
      expect.stringMatching(/^docs\/x\.md:2: \.\.\/shared\/spec/),
      expect.stringMatching(/^docs\/x\.md:2: \/work\/main\/docs/),
    ]);
  });
});
