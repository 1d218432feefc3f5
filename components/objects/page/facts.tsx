import type { ReactNode } from "react";
import { Link } from "@/components/link";
import { SimpleTable } from "@/components/simple-table";
import { getFormat, getTranslations } from "@/lib/i18n/server";
import type { ObjectDetail, ObjectRef } from "@/lib/objects/detail";

const ref = (r: ObjectRef | null, none: string) => (r ? <Link href={`/objects/${r.id}`}>{r.name}</Link> : none);
const refList = (list: ObjectRef[], none: string) =>
  list.length === 0
    ? none
    : list.map((r, i) => (
        <span key={r.id}>
          {i > 0 && ", "}
          {ref(r, none)}
        </span>
      ));
const hosts = (list: { fqdn: string; addresses: string[] }[]) =>
  list.map((h) => `${h.fqdn}${h.addresses.length ? ` (${h.addresses.join(", ")})` : ""}`).join("; ");

function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="facts">
      {rows.map(([label, value]) => (
        <div key={label} className="fact">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The object's data (its type's own, then the registry's) and FRED's metadata beside it. */
export async function DataPanels({ object }: { object: ObjectDetail }) {
  const [t, tc, fmt] = await Promise.all([getTranslations("object"), getTranslations("common"), getFormat()]);
  const none = tc("none");
  const when = (iso: string | null, otherwise = none) => (iso ? fmt.instant(iso) : otherwise);
  const d = object.domain;
  return (
    <div className="detail-columns">
      <section aria-labelledby="data">
        <h2 id="data">{t("data.title")}</h2>
        {d && (
          <Facts
            rows={[
              [t("data.zone"), d.zone],
              [t("data.expires"), fmt.day(d.expires)],
              [t("data.validationUntil"), d.validationExpires ? fmt.day(d.validationExpires) : none],
              [t("data.registrant"), ref(d.registrant, none)],
              [t("data.admins"), refList(d.admins, none)],
              [t("data.temps"), refList(d.temps, none)],
              [t("data.nsset"), ref(d.nsset, none)],
              [t("data.nameServers"), d.hosts.length ? hosts(d.hosts) : none],
              [t("data.keyset"), ref(d.keyset, none)],
            ]}
          />
        )}
        {object.contact && (
          <Facts
            rows={[
              [t("data.name"), object.contact.name ?? none],
              [t("data.organization"), object.contact.organization ?? none],
              [t("data.email"), object.contact.email ?? none],
            ]}
          />
        )}
        {(object.type === "nsset" || object.type === "keyset") && (
          <Facts
            rows={[
              [t("data.techContacts"), refList(object.techContacts, none)],
              ...(object.type === "nsset" ? ([[t("data.hosts"), hosts(object.hosts) || none]] as [string, ReactNode][]) : []),
            ]}
          />
        )}
        <Facts
          rows={[
            [t("data.sponsoringRegistrar"), object.sponsoringRegistrar ?? none],
            [t("data.createdBy"), object.creatingRegistrar],
            [t("data.created"), when(object.created)],
            [t("data.lastUpdated"), when(object.updated, tc("never"))],
            [t("data.updatedBy"), object.updatingRegistrar ?? none],
            [t("data.transferred"), when(object.transferred, tc("never"))],
            [t("data.deleted"), when(object.deleted, t("data.notDeleted"))],
          ]}
        />
      </section>
      <section aria-labelledby="metadata" className="panel">
        <h2 id="metadata">{t("metadata.title")}</h2>
        <Facts
          rows={[
            [t("metadata.lastUpdate"), when(object.metadata.lastUpdate, t("metadata.neverUpdated"))],
            [
              t("metadata.referencedBy"),
              object.metadata.references === null
                ? t("metadata.domainsNotReferenced")
                : t("metadata.references", { count: object.metadata.references }),
            ],
            [t("metadata.referencesChanged"), when(object.metadata.referencesChanged, tc("never"))],
            [
              t("metadata.deleteCandidate"),
              object.states.some((s) => s.name === "deleteCandidate")
                ? t("metadata.deleteCandidateNow")
                : when(object.metadata.deleteCandidateAt, t("metadata.deleteCandidateNotForeseen")),
            ],
          ]}
        />
      </section>
    </div>
  );
}

/** The audited actions on the object, for those who may read the audit log. */
export async function AuditPanel({ object }: { object: ObjectDetail }) {
  const [t, tc, fmt] = await Promise.all([getTranslations("object"), getTranslations("common"), getFormat()]);
  const none = tc("none");
  return (
    <>
      <h2>{t("audit.title")}</h2>
      {object.audit === null ? (
        <p className="muted">{t("audit.adminsOnly")}</p>
      ) : (
        <SimpleTable
          empty={t("audit.empty")}
          rows={object.audit}
          rowKey={(a) => `${a.at}-${a.action}`}
          columns={[
            { header: t("audit.columns.when"), className: "nowrap", cell: (a) => fmt.instant(a.at) },
            { header: t("audit.columns.who"), cell: (a) => a.actor ?? none },
            { header: t("audit.columns.what"), cell: (a) => a.action },
            { header: t("audit.columns.result"), cell: (a) => t("audit.result", { result: a.result }) },
          ]}
        />
      )}
    </>
  );
}
