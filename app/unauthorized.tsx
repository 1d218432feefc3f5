import Link from "next/link";

export default function Unauthorized() {
  return (
    <section className="message-page">
      <h1>Sign in to continue</h1>
      <p>
        You are not signed in, or your session has ended (after 30 minutes without activity, 12 hours at most, or when an administrator
        ended it).
      </p>
      <p>
        <Link className="button" href="/login">
          Sign in
        </Link>
      </p>
    </section>
  );
}
