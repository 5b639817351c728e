/**
 * The screening every inbound call passes once its ingress trunk is known and its numbers are
 * final (after the trunk's digit rules and digital map): the STIOCN block list (the call's
 * STIR/SHAKEN OCN or origid), the global and the trunk's block lists, then the fraud and
 * monitoring blocks and loop detection of the ingress trunk (monitoring.ts). Termination calls
 * (routing.ts) and DID calls from a DID vendor (did-routing.ts) both go through it, so a number or
 * caller blocked by the operator is refused whichever kind of trunk the call came in on.
 */
import { REJECT, type RejectCode } from './reject-codes';
import type { CallAttempt, RoutingState } from './routing-types';
import type { RoutingSnapshot, SnapshotTrunk } from './snapshot-types';
import { traceStep, type TraceStep } from './trace';

/** The refusal of the first screen the call fails, or null when it passes them all. */
export function screenInbound(
  snapshot: RoutingSnapshot,
  call: CallAttempt,
  state: RoutingState,
  trunk: SnapshotTrunk,
  ani: string,
  dnis: string,
  trace: TraceStep[] | null,
): RejectCode | null {
  const ocns = snapshot.ocn_blocks;
  if (ocns.size > 0 || (trace !== null && (call.ocn || call.origid || call.attestation))) {
    const ocnBlock = ocns.find(call.ocn, call.origid);
    const signed = `OCN ${call.ocn || '-'}, origid ${call.origid || '-'}, attestation ${call.attestation || '-'}`;
    if (ocnBlock !== undefined) {
      trace?.push(
        traceStep(
          'block_list',
          'fail',
          `STIR/SHAKEN ${signed}: ${ocnBlock.kind === 'ocn' ? 'OCN' : 'origid'} ${ocnBlock.value} is on the STIOCN block list${ocnBlock.block_id != null ? ` (entry #${ocnBlock.block_id})` : ''}${ocnBlock.note ? `: ${ocnBlock.note}` : ''}.`,
          { ocn_block: { ...ocnBlock } },
        ),
      );
      return REJECT.OCN_BLOCKED;
    }
    trace?.push(traceStep('block_list', 'ok', `STIR/SHAKEN ${signed}: not on the STIOCN block list.`));
  }

  const blocked =
    snapshot.block_list.findGlobal(ani, dnis) ??
    (trunk.has_block_list ? snapshot.block_list.findForTrunk(trunk.trunk_id, ani, dnis) : undefined);
  if (blocked !== undefined) {
    const byDnis = blocked.dnis_exact != null || blocked.dnis_prefix != null;
    trace?.push(
      traceStep(
        'block_list',
        'fail',
        `Blocked by ${blocked.trunk_id == null ? 'global' : 'trunk'} block-list entry${blocked.block_id != null ? ` #${blocked.block_id}` : ''}.`,
        { entry: { ...blocked } },
      ),
    );
    return byDnis ? REJECT.DNIS_BLOCKED : REJECT.ANI_BLOCKED;
  }
  trace?.push(traceStep('block_list', 'ok', `ANI ${ani} and DNIS ${dnis} are on no block list.`));

  const monitor = state.monitor;
  if (monitor !== undefined) {
    const hit = monitor.ingress(trunk.trunk_id, ani, dnis, call.time);
    if (hit !== null) {
      const until =
        hit.until === null ? 'until lifted by hand' : `until ${new Date(hit.until).toISOString()}`;
      trace?.push(
        traceStep(
          'monitoring',
          'fail',
          hit.kind === 'loop'
            ? `Loop: ANI ${ani} called DNIS ${dnis} too often (loop rule ${hit.rule_name}); refused ${until}.`
            : `${hit.kind === 'ani' ? `ANI ${ani} on trunk ${trunk.name}` : hit.kind === 'route' ? `Trunk ${trunk.name} to DNIS ${dnis}` : `Trunk ${trunk.name}`} is blocked by rule ${hit.rule_name}${hit.block_id !== null ? ` (block #${hit.block_id})` : ''} ${until}.`,
          { monitor: { ...hit } },
        ),
      );
      return hit.kind === 'loop'
        ? REJECT.LOOP_DETECTED
        : hit.kind === 'ani'
          ? REJECT.ANI_MONITOR_BLOCKED
          : hit.kind === 'route'
            ? REJECT.ROUTE_BLOCKED
            : REJECT.TRUNK_BLOCKED;
    }
    trace?.push(
      traceStep(
        'monitoring',
        'ok',
        `No monitoring block or loop for trunk ${trunk.name}, ANI ${ani}, DNIS ${dnis}.`,
      ),
    );
  }
  return null;
}
