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
    code: "Code from your authenticator app",
    codeHint: "Six digits, or one of your recovery codes.",
    useKey: "Use your security key",
    keyPending: "Touch your security key…",
    keyCancelled:
      "The security key did not answer: it was cancelled, timed out, or is not one registered for this account here. Try again.",
    keyWrongSite:
      "Security keys work only where the console is set up for them: an address under {rpId}, over HTTPS (or localhost). Open the console there, or enter a code.",
    keyUnsupported: "This browser cannot use security keys. Use another browser, or enter a code if you have an authenticator app.",
    errors: {
      CredentialsSignin: "Sign-in failed: the user name or password is wrong, or the account is disabled.",
      AccessDenied: "Your single sign-on account has no access to this console. Ask an administrator.",
      AccountNotLinked:
        "This console already has an account with your user name that is not linked to your single sign-on or directory identity, so you were not signed in. If that account is yours, ask an administrator to allow single sign-on / directory sign-in for it on the Users page, then sign in again.",
      OAuthSignin:
        "The single sign-on service cannot be reached, so you cannot sign in through it now. Try again in a moment; sign-in with a user name and password still works.",
      OAuthCallback:
        "The single sign-on service did not complete the sign-in. Try again in a moment; sign-in with a user name and password still works.",
      SecondFactorRequired: "Your password is right. Now enter the code from your authenticator app.",
      SecondFactorWrong: "That code is wrong or already used. Enter the current code from your authenticator app, or a recovery code.",
      SecondFactorKey: "Your password is right. Now use your security key.",
      SecondFactorEither: "Your password is right. Now use your security key, or enter the code from your authenticator app.",
      SecondFactorKeyWrong:
        "The security key's answer was not accepted (a key of another account, or an old answer). Try again with a key registered for your account.",
      SecondFactorEitherWrong:
        "That was not accepted. Use a security key registered for your account, or enter the current code from your authenticator app or a recovery code.",
      DirectoryUnavailable:
        "The registry's directory (LDAP) cannot be reached, so your directory password cannot be checked. Try again in a moment; console-only accounts can still sign in.",
      NoConsoleGroup:
        "Your directory account is in none of the groups that give access to this console, so you were signed out everywhere. Ask an administrator to add you to a console group.",
      BadBytes:
        "Sign-in failed: the user name or password holds a character no sign-in uses (a NUL or other control character, or broken Unicode). Type it again.",
      Unavailable: "The console's database is not answering, so nobody can sign in just now. Try again in a moment.",
      other: "Sign-in failed. Try again.",
      /** The password was not checked: a limit on guessing (lib/auth/throttle.ts) asks to wait. */
      throttled: {
        address: "Too many failed sign-ins from your address. Wait {wait}, then try again.",
        account:
          "Too many failed sign-ins for this user name in the last hour. Try again in {wait}, or sign in from a network you have signed in from before.",
        global:
          "The console is receiving very many failed sign-ins. Try again in {wait}, or sign in from a network you have signed in from before.",
      },
    },
    wait: {
      seconds: "{count, plural, one {# second} other {# seconds}}",
      minutes: "{count, plural, one {# minute} other {# minutes}}",
    },
  },
  /** /preferences: the signed-in person's own account. */
  account: {
    secondFactor: {
      title: "Two-step sign-in",
      required: "Administrators need two-step sign-in here: set it up to use the console.",
      off: "After your password (or directory password), the console also asks for a code from an authenticator app on your phone (any TOTP app).",
      offWithKeys:
        "Two-step sign-in is on with your security keys (below). You can also add an authenticator app on your phone (any TOTP app), which comes with recovery codes.",
      start: "Set up two-step sign-in",
      scan: "Scan this code with your authenticator app, or type the key into it. Then enter the six digits it shows.",
      qrLabel: "QR code of the key for your authenticator app",
      key: "Key:",
      code: "Code from the app",
      confirm: "Turn on two-step sign-in",
      done: "Done: I have kept my recovery codes",
      on: "On since {since}. {left, plural, one {# recovery code} other {# recovery codes}} left. Lost your phone? An administrator can reset it.",
      renew: "New recovery codes",
      turnOff: "Turn off the app",
      turnOffConfirm: "Turn off two-step sign-in with your authenticator app? Its recovery codes stop working too.",
      replace: "To move to another app or phone, turn this one off and set it up again.",
    },
    title: "Your account",
    securityKeys: {
      title: "Security keys and passkeys",
      text: "A security key (such as a YubiKey) or a passkey on this computer or phone can be your second step at sign-in instead of a code. Register two, so that losing one does not lock you out; an administrator can reset them.",
      none: "No security key registered.",
      name: "Name of the key",
      namePlaceholder: "blue YubiKey",
      add: "Add a security key",
      touch: "Touch your security key, or confirm on your device…",
      cancelled: "The browser did not register a key: it was cancelled or timed out.",
      wrongSite:
        "Security keys work only where the console is set up for them: an address under {rpId}, over HTTPS (or localhost). Open the console there.",
      registeredAlready: "That key is registered for your account already.",
      unsupported: "This browser cannot use security keys.",
      columns: { name: "Key", added: "Added", lastUsed: "Last used" },
      never: "never",
      remove: "Remove",
      removeConfirm: "Remove the chosen security key? It will no longer sign you in.",
      removeTitle: "Remove a key",
      removeWhich: "Key to remove",
    },
    signedInAs: "Signed in as {username} ({role}).",
    /** What proves it is the person before a change of how they sign in (lib/users/reauth.ts). */
    proof: {
      password: "Your current password",
      directory: "Your directory password",
      freshSignIn:
        "You sign in through single sign-on: for 10 minutes after signing in you may change how you sign in here; after that, sign out and in again first.",
    },
    email: {
      title: "E-mail for notices",
      text: "When your password or two-step sign-in changes, the console tells you at your next sign-in and, with an address here, by e-mail at once. Leave it empty for no mail.",
      address: "E-mail address",
      save: "Save the address",
    },
    sessions: {
      title: "Your sessions",
      text: "Every browser signed in as you now. End any you do not know, then change your password.",
      columns: { where: "Where (address)", browser: "Browser", opened: "Signed in", lastSeen: "Last active" },
      current: "this browser",
      end: "End",
      endConfirm: "End this session? That browser has to sign in again.",
      none: "No open sessions.",
    },
    password: {
      title: "Change your password",
      text: "Give your current password and the new one twice. The change ends your other sessions: every other browser signed in as you has to sign in again with the new password. This one stays signed in.",
      rules:
        "At least 12 characters, and not a common, breached or easily guessed password. A long passphrase of several unrelated words is best; all of it counts.",
      current: "Current password",
      new: "New password",
      confirm: "New password again",
      submit: "Change password",
      noPassword: "You sign in through single sign-on: this account has no console password to change.",
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
