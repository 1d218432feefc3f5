import Link from "next/link";

export default function Forbidden() {
  return (
    <section className="message-page">
      <h1>Not allowed</h1>
      <p>Your role does not allow this page or action. An administrator can change your role under Users.</p>
      <p>
        <Link href="/objects">Back to the objects</Link>
      </p>
    </section>
  );
}
