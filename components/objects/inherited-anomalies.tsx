import type { ReactNode } from "react";
import { Link } from "@/components/link";
import { getFormat, getTranslations } from "@/lib/i18n/server";
import type { ObjectDetail } from "@/lib/objects/detail";

interface InheritedAnomaliesProps {
  object: Pick<ObjectDetail, "type" | "name" | "requests" | "anomalies">;
  /** Where the page shows the request with this id. */
  requestHref: (id: number) => string;
}

/**
 * What the registry holds for the object that the console's rules would not accept today
 * (console.registry_anomalies), a sentence each with links to the requests concerned; nothing when
 * there is none. A kind this version does not know is shown with the database's own wording.
 */
export async function InheritedAnomalies({ object, requestHref }: InheritedAnomaliesProps) {
  if (object.anomalies.length === 0) return null;
  const t = await getTranslations("object");
  const fmt = await getFormat();
  const link = (id: number | null) => (chunks: ReactNode) => (id === null ? chunks : <Link href={requestHref(id)}>{chunks}</Link>);

  const sentence = (a: ObjectDetail["anomalies"][number]): ReactNode => {
    const values = {
      id: String(a.requestId ?? ""),
      otherId: String(a.otherRequestId ?? ""),
      state: a.state ?? "",
      request: link(a.requestId),
      other: link(a.otherRequestId),
    };
    const request = object.requests.find((r) => r.id === a.requestId);
    switch (a.kind) {
      case "automatic_state":
        return t.rich("anomalies.automaticState", values);
      case "wrong_type":
        return t.rich("anomalies.wrongType", { ...values, type: object.type });
      case "overlap":
        return t.rich("anomalies.overlap", values);
      case "zone_conflict":
        return t.rich("anomalies.zoneConflict", values);
      case "canceled_in_future":
        if (!request?.canceled) break;
        return t.rich("anomalies.canceledInFuture", { ...values, when: fmt.instant(request.canceled) });
      case "empty_period":
        if (!request?.to) break;
        return t.rich("anomalies.emptyPeriod", { ...values, from: fmt.instant(request.from), to: fmt.instant(request.to) });
      case "out_of_turn": {
        // It ends at the earlier of its cancellation and its end (ISO instants sort as text).
        const end = [request?.canceled, request?.to].filter((at): at is string => Boolean(at)).sort()[0];
        if (!request || !end) break;
        return t.rich("anomalies.outOfTurn", { ...values, from: fmt.instant(request.from), end: fmt.instant(end) });
      }
      case "handle_case":
        return t("anomalies.handleCase", {
          type: object.type,
          name: object.name,
          canonical: object.type === "domain" ? object.name.toLowerCase() : object.name.toUpperCase(),
        });
    }
    return a.detail;
  };

  return (
    <section className="notice inherited-anomalies" aria-labelledby="inherited">
      <h3 id="inherited">{t("anomalies.title")}</h3>
      <p>{t("anomalies.intro")}</p>
      <ul>
        {object.anomalies.map((a) => (
          <li key={`${a.kind}-${a.requestId ?? ""}-${a.otherRequestId ?? ""}`}>{sentence(a)}</li>
        ))}
      </ul>
    </section>
  );
}
