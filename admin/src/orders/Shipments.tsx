import { Box } from '@mui/material';
import { useTranslate, type RaRecord } from 'react-admin';
import type { RowGroups } from '../crud/rowGroups';
import { moneyText } from '../crud/values';

const K = 'resources.pedidos.shipments';

/** A row of one of an order's shipments (a store with several locations). */
const isShipment = (record: RaRecord) => record.fulfillment_order_id != null;

/** One of several shipments: its number in Hiper is `{number}-{k}`. */
const oneOfSeveral = (record: RaRecord) =>
  isShipment(record) && record.hiper_number != null && String(record.hiper_number) !== String(record.number);

const cents = (value: unknown) => Math.round(Number(value) * 100) || 0;

/** An order's heading over its shipments: its number, how many, the buyer, and the shipments' total. */
function ShipmentsHeading({ records }: { records: RaRecord[] }) {
  const translate = useTranslate();
  const [first] = records;
  const total = records.reduce((sum, record) => sum + cents(record.total), 0);
  return (
    <Box component="span" sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2, rowGap: 0.25 }}>
      <span>{translate(`${K}.heading`, { number: String(first.number ?? ''), smart_count: records.length })}</span>
      {first.customer_name && (
        <Box component="span" sx={{ fontWeight: 400 }}>
          {translate(`${K}.buyer`, { name: String(first.customer_name) })}
        </Box>
      )}
      <Box component="span" sx={{ fontWeight: 400 }}>
        {translate(`${K}.total`, { total: moneyText((total / 100).toFixed(2)) })}
      </Box>
    </Box>
  );
}

/**
 * The Pedidos screen's groups: the rows of one store order's shipments together under its number, first shipment
 * first, each with its own state, Hiper code, location and actions. An order sent whole is a row of its own.
 */
export const shipmentGroups: RowGroups = {
  keyOf: (record) => (isShipment(record) ? `${String(record.client_id)} ${String(record.nuvemshop_order_id)}` : null),
  headed: (records) => records.length > 1 || records.some(oneOfSeveral),
  heading: (records) => <ShipmentsHeading records={records} />,
  compare: (a, b) => Date.parse(String(a.received_at)) - Date.parse(String(b.received_at)),
};
