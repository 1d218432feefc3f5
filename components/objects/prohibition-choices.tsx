"use client";

import { useTranslations } from "@/lib/i18n/client";

/** The prohibitions a block may set, as checkboxes named `prohibitions`. */
export function ProhibitionChoices({ choices }: { choices: { name: string; checked: boolean }[] }) {
  const t = useTranslations("object.form");
  return (
    <fieldset className="plain prohibitions">
      <legend>{t("prohibitions")}</legend>
      {choices.map((choice) => (
        <label key={choice.name} className="inline">
          <input type="checkbox" name="prohibitions" value={choice.name} defaultChecked={choice.checked} />
          {choice.name}
        </label>
      ))}
    </fieldset>
  );
}
