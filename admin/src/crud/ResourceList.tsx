import { Box, Typography, useMediaQuery, type Theme } from '@mui/material';
import { Suspense, useState, type ComponentType, type ReactNode } from 'react';
import { ListBase, Title, useResourceDefinition, useTranslate, type RaRecord } from 'react-admin';
import { Navigate, useLocation } from 'react-router-dom';
import { declarationOf, offers, typeOfResource, type ResourceName } from '../dataProvider/resourceTypes';
import { AfterFirstPaint } from '../layout/firstPaint';
import { useFailureToast } from '../layout/useToast';
import { dialogDetails, useColumns, useCsvExporter, type ColumnCustomization } from './columns';
import { CreateDialog, DeleteRecordConfirm, dialogs, EditDialog, FilterChips, ShowDialog } from './deferred';
import { fieldsOf } from './description';
import { liveQuery } from './live';
import { correctedSearch, DEFAULT_SORT, pageSizesOf } from './listAddress';
import { LastPageRedirect, NextPagePrefetch } from './ListPaging';
import { ListActions, ListPage } from './ListPage';
import { PhoneRows } from './PhoneRows';
import type { FormCustomization } from './dialogParts';
import { ResourceTable } from './ResourceTable';
import { SearchBox } from './SearchBox';
import { ScreenLangProvider } from './ScreenLanguage';
import { SpecPagination } from './SpecPagination';

export interface ResourceListProps {
  resource: ResourceName;
  /** The columns the screen orders first or words itself; the other @listed fields follow. */
  columns?: (string | ColumnCustomization)[];
  /** How a record is named (its row menu, a phone's list, the delete confirmation) where no column shows its title. */
  representation: (record: RaRecord) => string;
  /** A record the user may not edit or delete (their own). */
  isLocked?: (record: RaRecord) => boolean;
  form?: FormCustomization;
  /** The screen's language where it is not the document's (pt-BR): 'en' for a screen in English. */
  lang?: string;
  /** What a read-only record's dialog shows under its fields. */
  dialogAfter?: (record: RaRecord) => ReactNode;
  /** Filters the screen draws itself above the list, beyond its states and references (the Auditoria's dates). */
  filterBar?: ReactNode;
}

const unlocked = () => false;

/**
 * A list screen derived from the schema: react-admin's List and DataTable with a search box (when a field is
 * @searchable), sortable headings (@sortable), the total, CSV export, bulk delete, a row click to edit, the row
 * menus, and the add / edit / delete dialogs. Texts come from `resources.<name>` in the i18n messages.
 */
export function ResourceList({
  resource,
  columns: customized,
  representation,
  isLocked = unlocked,
  form,
  lang,
  dialogAfter,
  filterBar,
}: ResourceListProps) {
  const translate = useTranslate();
  const location = useLocation();
  const failed = useFailureToast();
  // A phone gets a list rather than a table; known on the first render, so it never draws the other first.
  const Rows = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true })
    ? PhoneRows
    : ResourceTable;
  const columns = useColumns(resource, customized, lang);
  // A record is named as its title column reads (a state in words, not its code), in its row menu's name, a phone's
  // list and the delete confirmation alike: what people see is what they hear and say.
  // A title with a subtitle beside it is named as both read (recordTitle).
  const titleColumn = !declarationOf(resource).subtitle
    ? columns.find((column) => column.source === declarationOf(resource).title)
    : undefined;
  const name = titleColumn ? titleColumn.text : representation;
  const exporter = useCsvExporter(resource, columns);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<RaRecord | null>(null);
  const [deleting, setDeleting] = useState<RaRecord | null>(null);
  dialogs.usePreload();
  // What the record's dialog shows under its inputs, as its definition says (resources.ts): a client's charts.
  const definition = useResourceDefinition<{ recordPanel?: ComponentType<{ record: RaRecord }> }>({ resource });
  const searchable = Object.values(fieldsOf(typeOfResource(resource))).some((field) => field.searchable);
  const title = translate(`resources.${resource}.title`);

  const sizes = pageSizesOf(resource);
  const corrected = correctedSearch(location.search, sizes);
  if (corrected !== null) return <Navigate replace to={{ pathname: location.pathname, search: corrected }} />;

  return (
    <ScreenLangProvider value={lang}>
      {/* The layout grows with its content: this box takes the width it is given instead (inline-size containment),
          so a wide table scrolls inside its own box rather than pushing the page sideways on a phone. */}
      <Box lang={lang} sx={{ p: { xs: 1, sm: 3 }, width: '100%', boxSizing: 'border-box', contain: 'inline-size' }}>
        <Typography variant="h5" component="h1" sx={{ mb: 1 }}>
          {title}
        </Typography>
        <ListBase
          resource={resource}
          perPage={sizes[0]}
          sort={DEFAULT_SORT}
          storeKey={false}
          // Who may see the list is settled before it mounts (RequireAccess around every resource screen, the Layout
          // for the session), so the list asks for its rows at once instead of checking both again first.
          disableAuthentication
          exporter={exporter}
          // A failed load (the server unreachable, say) is told in the screen's language and the app's toasts; the
          // page shown is read again while the screen is open.
          queryOptions={{ onError: failed, ...liveQuery }}
        >
          <Title title={title} preferenceKey={false} />
          {filterBar}
          <ListPage
            search={searchable ? <SearchBox /> : null}
            actions={
              <ListActions
                resource={resource}
                label={translate(`resources.${resource}.action.create`)}
                onAdd={offers(resource, 'create') ? () => setAdding(true) : undefined}
              />
            }
            filters={
              <AfterFirstPaint>
                <Suspense fallback={null}>
                  <FilterChips resource={resource} />
                </Suspense>
              </AfterFirstPaint>
            }
            pagination={
              <AfterFirstPaint>
                <SpecPagination resource={resource} sizes={sizes} />
              </AfterFirstPaint>
            }
          >
            <Rows
              resource={resource}
              columns={columns}
              representation={name}
              isLocked={isLocked}
              onEdit={setEditing}
              onDelete={setDeleting}
            />
            <NextPagePrefetch />
            <LastPageRedirect />
          </ListPage>
        </ListBase>
        <Suspense fallback={null}>
          {adding && (
            <CreateDialog
              resource={resource}
              title={translate(`resources.${resource}.action.create`)}
              onClose={() => setAdding(false)}
              form={form}
            />
          )}
          {editing && !offers(resource, 'update') && (
            <ShowDialog
              resource={resource}
              title={translate(`resources.${resource}.action.show`)}
              record={editing}
              details={dialogDetails(customized)}
              after={dialogAfter}
              onClose={() => setEditing(null)}
            />
          )}
          {editing && offers(resource, 'update') && (
            <EditDialog
              resource={resource}
              title={translate(`resources.${resource}.action.edit`)}
              record={editing}
              onClose={() => setEditing(null)}
              form={form}
              representation={name}
              panel={definition.options?.recordPanel}
            />
          )}
          {/* Always there once the page has been painted (its module loads then): it closes with a transition. */}
          <AfterFirstPaint>
            <DeleteRecordConfirm
              resource={resource}
              record={deleting}
              title={translate(`resources.${resource}.action.delete`)}
              representation={name}
              onClose={() => setDeleting(null)}
            />
          </AfterFirstPaint>
        </Suspense>
      </Box>
    </ScreenLangProvider>
  );
}
