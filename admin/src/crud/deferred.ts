import { afterFirstPaintModule } from '../layout/firstPaint';

// The dialogs (add, edit, delete) and their forms are not on a list's first screen: their code comes after it.
export const dialogs = afterFirstPaintModule(() => import('./RecordDialog'));
export const CreateDialog = dialogs.component((module) => module.CreateDialog);
export const EditDialog = dialogs.component((module) => module.EditDialog);
export const ShowDialog = dialogs.component((module) => module.ShowDialog);
// What only some lists show (a state's filter, a link to a referenced record) comes after the first paint too.
const extras = afterFirstPaintModule(() => import('./ListExtras'));
export const StateFilters = extras.component((module) => module.StateFilters);
export const ReferenceLink = extras.component((module) => module.ReferenceLink);
export const FilterChips = extras.component((module) => module.FilterChips);
const confirms = afterFirstPaintModule(() => import('./DeleteConfirm'));
export const DeleteRecordConfirm = confirms.component((module) => module.DeleteRecordConfirm);
export const SpecBulkDeleteButton = confirms.component((module) => module.SpecBulkDeleteButton);
