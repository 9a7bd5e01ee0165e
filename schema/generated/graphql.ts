/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
export type ClientHealthHealth =
  | 'attention'
  | 'critical'
  | 'ok';

/** Who may sign up: `open` (active at once), `approval` (inactive until a superuser activates it), `closed` */
export type Registration =
  | 'approval'
  | 'closed'
  | 'open';

export type MeQueryVariables = Exact<{ [key: string]: never; }>;


export type MeQuery = { me: { id: string, email: string, full_name: string | null, is_active: boolean, is_superuser: boolean, receives_alerts: boolean } };

export type UpdateMeMutationVariables = Exact<{
  email?: string | null | undefined;
  full_name?: string | null | undefined;
}>;


export type UpdateMeMutation = { updateMe: { id: string, email: string, full_name: string | null, is_active: boolean, is_superuser: boolean } };

export type UpdateAlertsMutationVariables = Exact<{
  receives_alerts: boolean;
}>;


export type UpdateAlertsMutation = { updateMe: { id: string, receives_alerts: boolean } };

export type UpdatePasswordMutationVariables = Exact<{
  current_password: string;
  new_password: string;
}>;


export type UpdatePasswordMutation = { updatePassword: { message: string } };

export type DeleteMeMutationVariables = Exact<{ [key: string]: never; }>;


export type DeleteMeMutation = { deleteMe: { message: string } };

export type RegistrationQueryVariables = Exact<{ [key: string]: never; }>;


export type RegistrationQuery = { registration: Registration };

export type ActivityChartsQueryVariables = Exact<{
  client_id?: string | null | undefined;
  days?: number | null | undefined;
}>;


export type ActivityChartsQuery = { dailyActivity: { days: Array<{ day: string, products_written: number, rate_limited: number, runs: { queued: number, running: number, succeeded: number, partial: number, failed: number }, orders: { received: number, held: number, sending: number, sent: number, processed: number, rejected: number, invoiced: number, shipped: number, cancelled: number, uncertain: number } }> } };

export type DashboardCountsQueryVariables = Exact<{
  superuser: boolean;
}>;


export type DashboardCountsQuery = { healthCritical: { count: number }, healthAttention: { count: number }, _allClientHealthsMeta: { count: number }, allClientHealths: Array<{ id: string, client_id: string, client_name: string, health: ClientHealthHealth, reasons: unknown }>, clients: { count: number }, notConnected: { count: number }, partial: { count: number }, failed: { count: number }, tokenRevoked: { count: number }, disconnected: { count: number }, suspended: { count: number }, heldOrders: { count: number }, uncertainOrders: { count: number }, cancelRefusedOrders: { count: number }, items: { count: number }, users?: { count: number }, failedMail?: { count: number } };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}

export const MeDocument = new TypedDocumentString(`
    query Me {
  me {
    id
    email
    full_name
    is_active
    is_superuser
    receives_alerts
  }
}
    `) as unknown as TypedDocumentString<MeQuery, MeQueryVariables>;
export const UpdateMeDocument = new TypedDocumentString(`
    mutation UpdateMe($email: String, $full_name: String) {
  updateMe(email: $email, full_name: $full_name) {
    id
    email
    full_name
    is_active
    is_superuser
  }
}
    `) as unknown as TypedDocumentString<UpdateMeMutation, UpdateMeMutationVariables>;
export const UpdateAlertsDocument = new TypedDocumentString(`
    mutation UpdateAlerts($receives_alerts: Boolean!) {
  updateMe(receives_alerts: $receives_alerts) {
    id
    receives_alerts
  }
}
    `) as unknown as TypedDocumentString<UpdateAlertsMutation, UpdateAlertsMutationVariables>;
export const UpdatePasswordDocument = new TypedDocumentString(`
    mutation UpdatePassword($current_password: String!, $new_password: String!) {
  updatePassword(current_password: $current_password, new_password: $new_password) {
    message
  }
}
    `) as unknown as TypedDocumentString<UpdatePasswordMutation, UpdatePasswordMutationVariables>;
export const DeleteMeDocument = new TypedDocumentString(`
    mutation DeleteMe {
  deleteMe {
    message
  }
}
    `) as unknown as TypedDocumentString<DeleteMeMutation, DeleteMeMutationVariables>;
export const RegistrationDocument = new TypedDocumentString(`
    query Registration {
  registration
}
    `) as unknown as TypedDocumentString<RegistrationQuery, RegistrationQueryVariables>;
export const ActivityChartsDocument = new TypedDocumentString(`
    query ActivityCharts($client_id: ID, $days: Int) {
  dailyActivity(client_id: $client_id, days: $days) {
    days {
      day
      runs {
        queued
        running
        succeeded
        partial
        failed
      }
      products_written
      orders {
        received
        held
        sending
        sent
        processed
        rejected
        invoiced
        shipped
        cancelled
        uncertain
      }
      rate_limited
    }
  }
}
    `) as unknown as TypedDocumentString<ActivityChartsQuery, ActivityChartsQueryVariables>;
export const DashboardCountsDocument = new TypedDocumentString(`
    query DashboardCounts($superuser: Boolean!) {
  healthCritical: _allClientHealthsMeta(filter: {health: critical}) {
    count
  }
  healthAttention: _allClientHealthsMeta(filter: {health: attention}) {
    count
  }
  _allClientHealthsMeta {
    count
  }
  allClientHealths(perPage: 5) {
    id
    client_id
    client_name
    health
    reasons
  }
  clients: _allClientsMeta {
    count
  }
  notConnected: _allClientsMeta(filter: {sync_state: not_connected}) {
    count
  }
  partial: _allClientsMeta(filter: {sync_state: partial}) {
    count
  }
  failed: _allClientsMeta(filter: {sync_state: failed}) {
    count
  }
  tokenRevoked: _allClientsMeta(filter: {sync_state: token_revoked}) {
    count
  }
  disconnected: _allClientsMeta(filter: {sync_state: disconnected}) {
    count
  }
  suspended: _allClientsMeta(filter: {sync_state: suspended}) {
    count
  }
  heldOrders: _allOrdersMeta(filter: {state: held}) {
    count
  }
  uncertainOrders: _allOrdersMeta(filter: {state: uncertain}) {
    count
  }
  cancelRefusedOrders: _allOrdersMeta(filter: {cancel_refused: true}) {
    count
  }
  items: _allItemsMeta {
    count
  }
  users: _allUsersMeta @include(if: $superuser) {
    count
  }
  failedMail: _allMailJobsMeta(filter: {state: failed}) @include(if: $superuser) {
    count
  }
}
    `) as unknown as TypedDocumentString<DashboardCountsQuery, DashboardCountsQueryVariables>;