// Sign-in flows, passwords, single sign-on and the customer centre: English strings, under
// `identity.`.
import type { Messages } from './zh';

const identityEn: Messages['identity'] = {
  login: {
    locked:
      'This account is locked until {{until}}. Try again later, or reset your password with "Forgot password".',
    lockedNoTime:
      'This account is locked. Try again later, or reset your password with "Forgot password".',
    rateLimited: 'Too many sign-in attempts. Try again in {{seconds}} s.',
    passwordSet: 'Your password is set. Please sign in with it.',
    transferred: 'Your account has moved. Please sign in with your new username {{username}}.',
  },
  password: {
    setupTitle: 'Set your password',
    setupIntro: 'First sign-in: please set a password for {{username}}.',
    updateTitle: 'Update your password',
    updateIntro:
      'For your account’s safety, please set a new password for {{username}}. It must differ from the old one.',
    resetTitle: 'Reset your password',
    resetIntro: 'Choose a new password, then sign in with it.',
    new: 'New password',
    confirm: 'Confirm new password',
    submit: 'OK',
    noTokenTitle: 'This link is not valid',
    noToken:
      'There is no temporary token, or the link is no longer valid. Sign in again, or ask for a new reset link.',
    backToLogin: 'Back to login',
    forgotAgain: 'Ask for a new reset link',
    signInFailed: 'Your password is set, but signing you in failed. Please sign in.',
  },
  forgot: {
    title: 'Forgot password',
    intro:
      'Enter your username or registered e-mail address. We will send a link to reset your password to the registered address.',
    identifier: 'Username or e-mail',
    identifierPlaceholder: 'Enter your username or e-mail',
    identifierRequired: 'Please enter your username or e-mail',
    submit: 'Send reset link',
    sentTitle: 'Check your mailbox',
    sent: 'If the account exists and has an e-mail address, a reset link has been sent. The link is valid for 30 minutes.',
    backToLogin: 'Back to login',
  },
  transfer: {
    title: 'Account transfer',
    intro:
      'Your account has moved to a new username. Set a password for the new login, then sign in with the new username.',
    newUsername: 'New username',
    submit: 'Confirm transfer',
    noFlowTitle: 'No transfer to confirm',
    noFlow:
      'The transfer authorization is missing or has expired. Sign in with your old login again.',
  },
  sso: {
    button: 'Sign in with corporate account',
    starting: 'Taking you to the corporate sign-in…',
    checking: 'Completing the corporate sign-in…',
    notConfigured:
      'Corporate single sign-on is not configured yet. Please contact your administrator.',
    failedTitle: 'Corporate sign-in did not complete',
    stateMismatch:
      'This sign-in does not match the one this page started, or it has expired. Please sign in again.',
    providerError: 'The identity provider did not complete the sign-in: {{error}}',
    unknownStaff: 'Ask an administrator to create your staff account (with your corporate e-mail).',
    tryAgain: 'Try again',
    unavailable: 'The identity provider is not reachable. Please try again later.',
  },
  lasso: {
    title: 'SAML sign-in is not offered',
    text: 'This system does not use SAML (Lasso) sign-in. Staff sign in with the corporate OpenID Connect single sign-on on the staff login page; customers use the customer login page.',
    staffLogin: 'Go to staff login',
    customerLogin: 'Customer login',
  },
  account: {
    customsEmail: {
      title: 'Customs e-mails',
      label: 'E-mail me when customs releases or rejects one of my declarations',
      to: 'Sent to {{email}} (the e-mail on file).',
      noEmail: 'No e-mail address is on file: ask staff to add one to your company profile.',
      saved: 'Saved',
    },
    title: 'Login account',
    username: 'Username',
    company: 'Company name',
    email: 'E-mail',
    city: 'City',
    port: 'Port',
    slic: 'SLIC',
    postalCode: 'Postal code',
    easyClearId: 'Easy-clear ID',
    bound: 'Bound',
    notBound: 'Not bound',
    accountNo: 'Account number',
    upsAccount: 'Payer account',
    changePassword: 'Change password',
    bindNow: 'Bind now',
    loadFailed: 'Could not load your account information',
    retry: 'Retry',
    none: '—',
  },
  bind: {
    title: 'Bind your Easy-clear ID',
    intro:
      'Before you start, enter the Easy-clear ID and account number registered for your company. Once bound, every page is open to you.',
    upsId: 'Easy-clear ID',
    upsIdRequired: 'Please enter the Easy-clear ID',
    accountNo: 'Account number',
    accountNoRequired: 'Please enter the account number',
    submit: 'Bind',
    success: 'Bound successfully',
    alreadyTitle: 'Already bound',
    already: 'Your account is bound to the Easy-clear ID {{upsId}}.',
    goHome: 'Back to home',
    logout: 'Log out',
  },
};

export default identityEn;
