import { approveBatchAction, approveChangeAction, editChangeAction, rejectChangeAction, withdrawChangeAction } from "./actions";

/** What the tables of pending changes (the queue, a case's page, an object's page) may do: the server actions, given to them as props. */
export const PENDING_ACTIONS = {
  approve: approveChangeAction,
  reject: rejectChangeAction,
  withdraw: withdrawChangeAction,
  edit: editChangeAction,
  approveBatch: approveBatchAction,
};
