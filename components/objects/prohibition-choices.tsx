/** The prohibitions a block may set, as checkboxes named `prohibitions`. */
export function ProhibitionChoices({ choices }: { choices: { name: string; checked: boolean }[] }) {
  return (
    <fieldset className="plain prohibitions">
      <legend>Prohibitions</legend>
      {choices.map((choice) => (
        <label key={choice.name} className="inline">
          <input type="checkbox" name="prohibitions" value={choice.name} defaultChecked={choice.checked} />
          {choice.name}
        </label>
      ))}
    </fieldset>
  );
}
