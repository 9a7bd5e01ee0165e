import AddIcon from '@mui/icons-material/Add';
import {
  Box,
  Button as MuiButton,
  Card,
  styled,
  Skeleton,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { Suspense, useMemo, useState, type ReactNode } from 'react';
import {
  BooleanField,
  DataTable,
  downloadCSV,
  ExportButton,
  ListBase,
  Title,
  TopToolbar,
  useListContext,
  useTranslate,
  type Exporter,
  type RaRecord,
} from 'react-admin';
import { Navigate, useLocation } from 'react-router-dom';
import { typeOfResource, type ResourceName } from '../dataProvider/resourceTypes';
import { toCsv } from './csv';
import { fieldsOf, type FieldDescription } from './description';
import { correctedSearch, DEFAULT_SORT, PAGE_SIZE } from './listAddress';
import { LastPageRedirect, NextPagePrefetch } from './ListPaging';
import { AfterFirstPaint, afterFirstPaintModule } from '../layout/firstPaint';
import { useFailureToast } from '../layout/useToast';
import type { FormCustomization } from './RecordDialog';
import { RowActions } from './RowActions';
import { SearchBox } from './SearchBox';
import { SpecPagination } from './SpecPagination';

export { PAGE_SIZE };

// The dialogs (add, edit, delete) and their forms are not on a list's first screen: their code comes after it.
const dialogs = afterFirstPaintModule(() => import('./RecordDialog'));
const CreateDialog = dialogs.component((module) => module.CreateDialog);
const EditDialog = dialogs.component((module) => module.EditDialog);
const confirms = afterFirstPaintModule(() => import('./DeleteConfirm'));
const DeleteRecordConfirm = confirms.component((module) => module.DeleteRecordConfirm);
const SpecBulkDeleteButton = confirms.component((module) => module.SpecBulkDeleteButton);
export const PLACEHOLDER_ROWS = 4;

type Translate = ReturnType<typeof useTranslate>;

/** A column a screen words itself: its text (shown and exported) and, if it differs, how it is drawn. */
export interface ColumnCustomization {
  source: string;
  text?: (record: RaRecord, translate: Translate) => string;
  render?: (record: RaRecord) => ReactNode;
}

const TruncatedText = styled('span')({
  display: 'block',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
});

/** A cell's text cut at 150px, with the full text on hover. */
export function Truncated({ text, width = 150 }: { text: string; width?: number }) {
  // Fixed styles and the width inline: a table draws many of these, and `sx` is worked out on every render.
  return (
    <TruncatedText title={text} style={{ maxWidth: width }}>
      {text}
    </TruncatedText>
  );
}

/** How a field reads by default: a secret says whether it is set, a boolean yes or no, anything else as it is. */
function defaultText(field: FieldDescription | undefined, value: unknown, translate: Translate): string {
  if (field?.secret) return translate(value ? 'app.secret.set' : 'app.secret.unset');
  if (field?.type === 'Boolean') return translate(value ? 'ra.boolean.true' : 'ra.boolean.false');
  return value == null ? '' : String(value);
}

interface Column {
  source: string;
  field: FieldDescription | undefined;
  text: (record: RaRecord) => string;
  render: (record: RaRecord) => ReactNode;
}

function useColumns(resource: ResourceName, customized: (string | ColumnCustomization)[] | undefined): Column[] {
  const translate = useTranslate();
  return useMemo(() => {
    const fields = fieldsOf(typeOfResource(resource));
    // The columns are the fields the schema marks @listed: first those the screen names, in its order, then the rest.
    const named = (customized ?? []).map((entry) => (typeof entry === 'string' ? entry : entry.source));
    const rest = Object.keys(fields).filter((name) => fields[name].listed && !named.includes(name));
    return [...(customized ?? []), ...rest].map((entry) => {
      const custom: ColumnCustomization = typeof entry === 'string' ? { source: entry } : entry;
      const field = fields[custom.source];
      const text = (record: RaRecord) =>
        custom.text ? custom.text(record, translate) : defaultText(field, record[custom.source], translate);
      const render =
        custom.render ??
        (field?.type === 'Boolean' && !custom.text
          ? () => <BooleanField source={custom.source} />
          : (record: RaRecord) => <Truncated text={text(record)} />);
      return { source: custom.source, field, text, render };
    });
  }, [resource, customized, translate]);
}

/** The exporter: what the columns show, every filtered row (not just the page), as CSV. */
function useCsvExporter(resource: string, columns: Column[]): Exporter {
  const translate = useTranslate();
  return (records: RaRecord[]) => {
    const header = columns.map((column) => translate(`resources.${resource}.fields.${column.source}`));
    downloadCSV(toCsv([header, ...records.map((record) => columns.map((column) => column.text(record)))]), resource);
  };
}

/** 4 placeholder rows under the headings while the first page loads. */
function PlaceholderTable({ label, headings }: { label: string; headings: string[] }) {
  return (
    <TableContainer>
      <Table size="small" aria-label={label} aria-busy>
        <TableHead>
          <TableRow>
            {headings.map((heading, index) => (
              <TableCell key={index} sx={{ fontWeight: 600 }}>
                {heading}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {Array.from({ length: PLACEHOLDER_ROWS }, (_, row) => (
            <TableRow key={row} data-testid="placeholder-row">
              {headings.map((_, index) => (
                <TableCell key={index}>
                  <Skeleton variant="text" width="80%" />
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

interface TableProps {
  resource: ResourceName;
  columns: Column[];
  representation: (record: RaRecord) => string;
  isLocked: (record: RaRecord) => boolean;
  onEdit: (record: RaRecord) => void;
  onDelete: (record: RaRecord) => void;
}

/** The table: react-admin's DataTable, with the specification's loading rows and its stale page dimmed. */
function ResourceTable({ resource, columns, representation, isLocked, onEdit, onDelete }: TableProps) {
  const translate = useTranslate();
  const { isPending, isPlaceholderData } = useListContext();
  const label = translate(`resources.${resource}.table`);
  const actionsLabel = translate('app.list.actions');
  if (isPending) {
    return (
      <PlaceholderTable
        label={label}
        headings={[...columns.map((c) => translate(`resources.${resource}.fields.${c.source}`)), actionsLabel]}
      />
    );
  }
  return (
    <DataTable
      aria-label={label}
      aria-busy={isPlaceholderData}
      rowClick={(_id, _resource, record) => {
        if (!isLocked(record)) onEdit(record);
        return false;
      }}
      isRowSelectable={(record) => !isLocked(record)}
      rowSx={() => ({ opacity: isPlaceholderData ? 0.5 : 1, transition: 'opacity 0.2s' })}
      bulkActionButtons={
        // Drawn hidden until a row is selected.
        <AfterFirstPaint>
          <Suspense fallback={null}>
            <SpecBulkDeleteButton
              resource={resource}
              title={translate(`resources.${resource}.action.delete`)}
              representation={representation}
            />
          </Suspense>
        </AfterFirstPaint>
      }
      empty={<Typography sx={{ p: 2 }}>{translate(`resources.${resource}.empty`)}</Typography>}
      sx={{ '& .RaDataTable-tableWrapper': { overflowX: 'auto' } }}
    >
      {columns.map((column) => (
        <DataTable.Col
          key={column.source}
          source={column.source}
          label={`resources.${resource}.fields.${column.source}`}
          disableSort={!column.field?.sortable}
          render={column.render}
        />
      ))}
      <DataTable.Col
        label={actionsLabel}
        render={(record: RaRecord) => (
          <RowActions
            label={translate('app.list.actions_for', { name: representation(record) })}
            disabled={isLocked(record)}
            actions={[
              { label: translate(`resources.${resource}.action.edit`), onClick: () => onEdit(record) },
              {
                label: translate(`resources.${resource}.action.delete`),
                onClick: () => onDelete(record),
                danger: true,
              },
            ]}
          />
        )}
      />
    </DataTable>
  );
}

function ListActions({ label, onAdd }: { label: string; onAdd: () => void }) {
  // The add button keeps its words on a phone too (react-admin's own buttons shrink to an icon there).
  return (
    <TopToolbar sx={{ flexWrap: { xs: 'wrap', sm: 'nowrap' }, alignItems: 'center', minHeight: 0, py: { xs: 1 } }}>
      <MuiButton variant="contained" size="small" startIcon={<AddIcon />} onClick={onAdd}>
        {label}
      </MuiButton>
      <ExportButton maxResults={1000} />
    </TopToolbar>
  );
}

/** The page around a list, as react-admin's List lays it out (its ListView and ListToolbar). */
const Frame = styled('div')(({ theme }) => ({
  display: 'flex',
  '& .RaList-main': { flex: '1 1 auto', display: 'flex', flexDirection: 'column', minWidth: 0 },
  '& .RaList-content': {
    position: 'relative',
    overflow: 'inherit',
    [theme.breakpoints.down('sm')]: { boxShadow: 'none' },
  },
}));

const Toolbar = styled('div')(({ theme }) => ({
  display: 'flex',
  position: 'relative',
  justifyContent: 'space-between',
  alignItems: 'flex-end',
  width: '100%',
  [theme.breakpoints.down('md')]: { flexWrap: 'wrap' },
  [theme.breakpoints.down('sm')]: {
    backgroundColor: (theme.vars || theme).palette.background.paper,
    flexWrap: 'inherit',
    flexDirection: 'column-reverse',
  },
}));

/**
 * react-admin's List page drawn on its ListBase: the search box and the actions above the table's card, the pagination
 * below. react-admin's List would also bring into the first screen's code what this app does not show (its filter
 * form, its pagination with a rows-per-page select, its empty page): about a tenth of that code.
 */
function ListPage({
  search,
  actions,
  pagination,
  children,
}: Record<'search' | 'actions' | 'pagination' | 'children', ReactNode>) {
  return (
    <Frame className="list-page">
      <div className="RaList-main">
        <Toolbar className="RaList-actions">
          {search}
          <span />
          {actions}
        </Toolbar>
        <Card className="RaList-content">{children}</Card>
        {pagination}
      </div>
    </Frame>
  );
}

export interface ResourceListProps {
  resource: ResourceName;
  /** The columns the screen orders first or words itself; the other @listed fields follow. */
  columns?: (string | ColumnCustomization)[];
  /** How a record is named: in its row menu's name and in the delete confirmation. */
  representation: (record: RaRecord) => string;
  /** A record the user may not edit or delete (their own). */
  isLocked?: (record: RaRecord) => boolean;
  form?: FormCustomization;
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
}: ResourceListProps) {
  const translate = useTranslate();
  const location = useLocation();
  const failed = useFailureToast();
  const columns = useColumns(resource, customized);
  const exporter = useCsvExporter(resource, columns);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<RaRecord | null>(null);
  const [deleting, setDeleting] = useState<RaRecord | null>(null);
  dialogs.usePreload();
  const searchable = Object.values(fieldsOf(typeOfResource(resource))).some((field) => field.searchable);
  const title = translate(`resources.${resource}.title`);

  const corrected = correctedSearch(location.search, PAGE_SIZE);
  if (corrected !== null) return <Navigate replace to={{ pathname: location.pathname, search: corrected }} />;

  return (
    // The layout grows with its content: this box takes the width it is given instead (inline-size containment), so
    // a wide table scrolls inside its own box rather than pushing the page sideways on a phone.
    <Box sx={{ p: { xs: 1, sm: 3 }, width: '100%', boxSizing: 'border-box', contain: 'inline-size' }}>
      <Typography variant="h5" component="h1" sx={{ mb: 1 }}>
        {title}
      </Typography>
      <ListBase
        resource={resource}
        perPage={PAGE_SIZE}
        sort={DEFAULT_SORT}
        storeKey={false}
        // Who may see the list is settled before it mounts (RequireAccess around every resource screen, the Layout
        // for the session), so the list asks for its rows at once instead of checking both again first.
        disableAuthentication
        exporter={exporter}
        // A failed load (the server unreachable, say) is told in the screen's language and the app's toasts.
        queryOptions={{ onError: failed }}
      >
        <Title title={title} preferenceKey={false} />
        <ListPage
          search={searchable ? <SearchBox /> : null}
          actions={
            <ListActions label={translate(`resources.${resource}.action.create`)} onAdd={() => setAdding(true)} />
          }
          pagination={
            <AfterFirstPaint>
              <SpecPagination resource={resource} />
            </AfterFirstPaint>
          }
        >
          <ResourceTable
            resource={resource}
            columns={columns}
            representation={representation}
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
        {editing && (
          <EditDialog
            resource={resource}
            title={translate(`resources.${resource}.action.edit`)}
            record={editing}
            onClose={() => setEditing(null)}
            form={form}
          />
        )}
        {/* Always there once the page has been painted (its module loads then): it closes with a transition. */}
        <AfterFirstPaint>
          <DeleteRecordConfirm
            resource={resource}
            record={deleting}
            title={translate(`resources.${resource}.action.delete`)}
            representation={representation}
            onClose={() => setDeleting(null)}
          />
        </AfterFirstPaint>
      </Suspense>
    </Box>
  );
}
