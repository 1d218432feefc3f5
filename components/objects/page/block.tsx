import { randomUUID } from "node:crypto";
import { ActionForm, ActionNotices } from "@/components/action-form";
import { CaseChoice } from "@/components/cases/case-choice";
import { ChangeBlockForm } from "@/components/objects/page/change-block-form";
import { ProhibitionChoices } from "@/components/objects/prohibition-choices";
import { SimpleTable } from "@/components/simple-table";
import { WallTimeInput } from "@/components/wall-time-input";
import type { ActionResult } from "@/lib/actions/result";
import { readConfig } from "@/lib/config";
import { wallTime } from "@/lib/format/instant";
import { getFormat, getPeriodFormat, getTranslations } from "@/lib/i18n/server";
import { BLOCK_HISTORY_ROWS } from "@/lib/objects/block-history";
import type { ObjectDetail } from "@/lib/objects/detail";
import { DEFAULT_PROHIBITIONS, isProhibition } from "@/lib/requests/block-rules";
import { REASON_MAX } from "@/lib/requests/limits";

type FormAction = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

/** The hidden field that names a block to a form: its console id, or its serverBlocked request when FRED made it. */
function BlockKey({ block }: { block: { id: number | null; requestId: number } }) {
  return block.id === null ? (
    <input type="hidden" name="blockRequestId" value={block.requestId} />
  ) : (
    <input type="hidden" name="blockId" value={block.id} />
  );
}

/** The administrative block: what it is (the console's or FRED's), and to block, change it or lift it. */
export async function BlockPanel({
  object,
  caseId,
  actions,
}: {
  object: ObjectDetail;
  /** The case chosen for a new block (the page's `case` parameter). */
  caseId: number | null;
  actions: { block: FormAction; changeBlock: FormAction; unblock: FormAction };
}) {
  if (
    !object.block &&
    !(object.canWrite && object.requestable.some((r) => r.name === "serverBlocked")) &&
    object.blockHistory.events.length === 0
  )
    return null;
  const [t, fmt] = await Promise.all([getTranslations("object"), getFormat()]);
  const timeZone = readConfig().registryTimeZone;
  const blockAhead = object.block !== null && Date.parse(object.block.from) > Date.now();
  const prohibitionChoices = (checked: (name: string) => boolean) =>
    object.requestable.filter((r) => isProhibition(r.name)).map((r) => ({ name: r.name, checked: checked(r.name) }));
  const { block: blockAction, changeBlock: changeBlockAction, unblock: unblockAction } = actions;
  return (
    <section className="panel" aria-labelledby="blocking">
      <h2 id="blocking">{t("block.title")}</h2>
      {/* A change's confirmation stays below the panel's forms, even when the change takes its form away. */}
      <ActionNotices placement="after">
        {object.block ? (
          <>
            <p>
              {object.block.id === null
                ? t("block.fredBlocked", {
                    ahead: blockAhead ? "yes" : "no",
                    request: String(object.block.requestId),
                    from: fmt.instant(object.block.from),
                    end: object.block.to ? "until" : "open",
                    to: object.block.to ? fmt.instant(object.block.to) : "",
                    states: ["serverBlocked", ...object.block.prohibitions].join(", "),
                  })
                : object.block.to
                  ? t(blockAhead ? "block.willBlockUntil" : "block.blockedUntil", {
                      id: String(object.block.id),
                      from: fmt.instant(object.block.from),
                      to: fmt.instant(object.block.to),
                      by: object.block.by ?? "",
                      states: ["serverBlocked", ...object.block.prohibitions].join(", "),
                    })
                  : t(blockAhead ? "block.willBlockOpen" : "block.blockedOpen", {
                      id: String(object.block.id),
                      from: fmt.instant(object.block.from),
                      by: object.block.by ?? "",
                      states: ["serverBlocked", ...object.block.prohibitions].join(", "),
                    })}
            </p>
            {object.block.reason && <p className="muted">{t("block.givenReason", { reason: object.block.reason })}</p>}
            {object.canWrite && (
              <ActionForm
                action={unblockAction}
                className="inline"
                confirm={
                  object.block.id === null
                    ? t("block.unblockFredConfirm", { name: object.name })
                    : t("block.unblockConfirm", { id: String(object.block.id), name: object.name })
                }
              >
                <BlockKey block={object.block} />
                <input type="hidden" name="objectId" value={object.id} />
                <input
                  name="reason"
                  required
                  maxLength={REASON_MAX}
                  placeholder={t("block.reasonPlaceholder")}
                  aria-label={t("block.unblockReason")}
                />
                <button type="submit">{t("block.unblock")}</button>
              </ActionForm>
            )}
            {object.canWrite && (
              <details className="change-block">
                <summary>{t("block.changeSummary")}</summary>
                <ChangeBlockForm
                  // Filled anew with what the block is once it has changed.
                  key={`${object.block.id}-${object.block.requestId}`}
                  action={changeBlockAction}
                  objectId={object.id}
                  objectName={object.name}
                  block={{ id: object.block.id, requestId: object.block.requestId }}
                  ahead={blockAhead}
                  current={{
                    from: wallTime(Date.parse(object.block.from), timeZone).slice(0, 16),
                    to: object.block.to ? wallTime(Date.parse(object.block.to), timeZone).slice(0, 16) : "",
                    prohibitions: object.block.prohibitions,
                  }}
                  choices={object.requestable.filter((r) => isProhibition(r.name)).map((r) => r.name)}
                  labels={{
                    start: t("block.newStart", { zone: timeZone }),
                    end: t("block.newEnd"),
                    reason: t("block.changeReason"),
                    submit: t("block.change"),
                  }}
                  reasonMax={REASON_MAX}
                />
              </details>
            )}
          </>
        ) : object.canWrite && object.requestable.some((r) => r.name === "serverBlocked") ? (
          <ActionForm action={blockAction} className="block-form" confirm={t("block.blockConfirm", { name: object.name })}>
            <input type="hidden" name="objectId" value={object.id} />
            <input type="hidden" name="idempotencyKey" value={randomUUID()} />
            <div className="filter-row">
              <label>
                {t("block.from", { zone: timeZone })}
                <WallTimeInput name="from" />
              </label>
              <label>
                {t("block.until")}
                <WallTimeInput name="to" />
              </label>
            </div>
            <ProhibitionChoices choices={prohibitionChoices((name) => DEFAULT_PROHIBITIONS.includes(name))} />
            <CaseChoice objectId={object.id} selected={caseId} />
            <label className="reason">
              {t("block.reason")}
              <input name="reason" required maxLength={REASON_MAX} />
            </label>
            <button type="submit">{t("block.block")}</button>
          </ActionForm>
        ) : null}
      </ActionNotices>
      <BlockHistory object={object} />
    </section>
  );
}

/** Every block made, changed and lifted on the object, oldest first: who, when, what and why. */
async function BlockHistory({ object }: { object: ObjectDetail }) {
  const { events, blocks } = object.blockHistory;
  if (events.length === 0) return null;
  const [t, tc, fmt, period] = await Promise.all([getTranslations("object"), getTranslations("common"), getFormat(), getPeriodFormat()]);
  return (
    <>
      <h3 id="block-history">{t("block.history.title")}</h3>
      {blocks > BLOCK_HISTORY_ROWS && (
        <p className="muted">{t("block.history.newest", { shown: fmt.number(BLOCK_HISTORY_ROWS), total: fmt.number(blocks) })}</p>
      )}
      <SimpleTable
        className="block-history"
        empty=""
        rows={events}
        rowKey={(e) => `${e.kind}-${e.blockId}`}
        columns={[
          { header: t("block.history.columns.when"), cell: (e) => fmt.instant(e.at) },
          {
            header: t("block.history.columns.what"),
            cell: (e) =>
              t("block.history.what", {
                kind: e.kind,
                id: String(e.blockId),
                period: period(e.from, e.to),
                states: ["serverBlocked", ...e.prohibitions].join(", "),
              }),
          },
          { header: t("block.history.columns.by"), cell: (e) => e.by ?? tc("none") },
          { header: t("block.history.columns.reason"), cell: (e) => e.reason ?? tc("none") },
        ]}
      />
    </>
  );
}
