export const auth = {
  login: {
    title: "Sign in",
    intro: "Registry State Console is for the registry's administrators and support staff.",
    sso: "single sign-on",
  },
  signIn: {
    username: "User name",
    password: "Password",
    submit: "Sign in",
    pending: "Signing in…",
    withSso: "Sign in with {name}",
    errors: {
      CredentialsSignin: "Sign-in failed: the user name or password is wrong, or the account is disabled.",
      Throttled: "Too many failed sign-ins for this user name. Wait a minute, then try again.",
      AccessDenied: "Your single sign-on account has no access to this console. Ask an administrator.",
      other: "Sign-in failed. Try again.",
    },
  },
  notFound: {
    title: "Page not found",
    text: "There is no page at this address in the console.",
    back: "Go to the overview",
  },
  forbidden: {
    title: "Not allowed",
    text: "Your role does not allow this page or action. An administrator can change your role under Users.",
    back: "Back to the objects",
  },
  unauthorized: {
    title: "Sign in to continue",
    text: "You are not signed in, or your session has ended (after 30 minutes without activity, 12 hours at most, or when an administrator ended it).",
    signIn: "Sign in",
  },
  unavailable: {
    title: "Database unavailable",
    heading: "The registry database is unavailable",
    text: "The console cannot reach its database right now: it may be restarting, or the network to it is down. Nothing was half-done — every change is saved whole or not at all, and a form sent again never makes its change twice.",
    retry: "This page tries again every 5 seconds. <link>Try again now</link>",
  },
} as const;
