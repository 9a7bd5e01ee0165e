/**
 * Every text the API answers with, once, letter for letter: clients compare them (the admin, scripts written against
 * the REST API), so a change here is a change of the API. Services throw them, and both adapters answer them.
 */
export const messages = {
  // Sessions and privileges
  notAuthenticated: 'Not authenticated',
  invalidCredentials: 'Could not validate credentials',
  notEnoughPrivileges: "The user doesn't have enough privileges",
  inactiveUser: 'Inactive user',
  userNotFound: 'User not found',
  incorrectLogin: 'Incorrect email or password',
  tooManyRequests: 'Too many requests',
  tooManySyncRuns: 'Too many synchronisations started; wait before starting another',

  // Accounts
  userIdNotFound: 'The user with this id does not exist in the system',
  usernameNotFound: 'The user with this username does not exist in the system.',
  emailTakenOnCreate: 'The user with this email already exists in the system.',
  emailTakenOnSignup: 'The user with this email already exists in the system',
  emailTakenOnUpdate: 'User with this email already exists',
  registrationClosed: 'Open user registration is forbidden on this server',
  noSelfDemotion: 'Super users are not allowed to demote or deactivate themselves',
  noSelfDeletion: 'Super users are not allowed to delete themselves',
  lastSuperuser: 'The system must keep at least one active superuser',
  incorrectPassword: 'Incorrect password',
  samePassword: 'New password cannot be the same as the current one',
  invalidResetToken: 'Invalid token',
  passwordUpdated: 'Password updated successfully',
  userDeleted: 'User deleted successfully',

  // Items and clients
  itemNotFound: 'Item not found',
  notEnoughPermissions: 'Not enough permissions',
  itemDeleted: 'Item deleted successfully',
  clientNotFound: 'Client not found',
  clientDeleted: 'Client deleted successfully',
  /** A unique field's value is taken: `A client with this <field> already exists`. */
  alreadyExists: (record: string, fields: readonly string[]) =>
    `A ${record} with this ${fields.join(' and ')} already exists`,

  // Store authorization
  storeAuthorized: 'Store authorized successfully',
  invalidSignature: 'Invalid signature',
  webhookReceived: 'Webhook received',
  webhookBusy: 'Too many unsigned webhooks are waiting; try again shortly',
  nuvemshopTimedOut: 'Nuvemshop did not answer in time',
  nuvemshopUnreachable: 'Could not reach Nuvemshop',

  // Store synchronisation
  hiperKeyRefused: 'Hiper refused the security key',
  hiperTimedOut: 'Hiper did not answer in time',
  hiperUnreachable: 'Could not reach Hiper',
  storeTokenRevoked: 'Nuvemshop refused the store token',
  storeSuspended: 'Nuvemshop suspended the store (payment required)',
  hiperCursorStuck: "Hiper's cursor did not advance",
  syncStepFailedRepeatedly: 'A step of the run failed the same way on two attempts in a row',
  storePermissionMissing: 'Nuvemshop refused the call: the app lacks a permission',

  // Requests
  notFound: 'Not Found',
  methodNotAllowed: 'Method Not Allowed',
  badRequest: 'Bad request',
  bodyTooLarge: 'Request body is too large',
  unsupportedEncoding: 'Unsupported request encoding',
  formFieldsOnly: 'This form takes text fields only, not files',
  malformedMultipart: 'Malformed multipart/form-data body',
  internalError: 'Internal Server Error',
  databaseUnavailable: 'Service temporarily unavailable, try again shortly',
  serverBusy: 'Too many requests are being answered at once; try again shortly',
  searchTimedOut: 'The database took too long to answer; try a narrower search',
  tooManySearchesOfUser: (max: number) =>
    `Too many searches at once: at most ${max} of yours may run or wait at a time; search again when one has answered`,
  tooManySearches: 'Too many searches at once on the server; search again in a moment',
} as const;
