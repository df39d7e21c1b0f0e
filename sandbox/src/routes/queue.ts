import { ErrorBody, queueSearchParams, ENDPOINTS } from '@dchub/core';
import type { SandboxContext } from '../context.js';
import { previewQueueSurvivors, selectQueueSurvivors, snapshotDate } from '../domain/queue.js';
import { AnswerMemo } from '../policy/memo.js';
import type { RouteRegistry } from '../registry.js';

export function register(r: RouteRegistry, ctx: SandboxContext): void {
  const memo = new AnswerMemo();
  r.add({
    ...ENDPOINTS.queue,
    summary:
      'Refined interconnection queue: server-side set reduction with predicates (keyless callers get a 3-row preview)',
    tags: ['Chain'],
    envelopeErrors: true,
    responses: {
      200: { description: 'Queue survivors (`_entity: queue_results`)' },
      400: { description: 'A predicate is invalid', schema: ErrorBody },
    },
    handler: (c, { query }) => {
      const now = ctx.clock.nowMs();
      const present = ctx.presenters.queue;
      const preview = present.previewFor(c.get('tier'));
      const sent = Object.keys(c.req.query()).sort();
      if (!preview) for (const [k, v] of Object.entries(present.fullHeaders())) c.header(k, v);
      // Answers depend only on the filters, the preview/full split (and what a preview ignored) and the weekly
      // snapshot.
      const key = `${preview ? `p|${sent.join(',')}` : 'f'}|${snapshotDate(now)}|${queueSearchParams(query)}`;
      return memo.respond(c, key, () =>
        present.present(
          preview
            ? previewQueueSurvivors(ctx.data.queue, query, ctx.seed, now)
            : selectQueueSurvivors(ctx.data.queue, query, ctx.seed, now),
          preview,
          sent,
        ),
      );
    },
  });
}
