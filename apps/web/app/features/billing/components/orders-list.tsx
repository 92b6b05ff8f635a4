import { formatCents, formatShortDate, type Order, type OrderStatus } from '@chapterwise/shared';
import { Link } from 'react-router';
import { ErrorBox } from '../../../components/ui/error-box';
import { Loading } from '../../../components/ui/loading';
import { errorMessage } from '../../../lib/api';
import { useOrders } from '../api';

const STATUS_LABELS: Record<OrderStatus, string> = {
  pending: 'Pending',
  paid: 'Paid',
  failed: 'Payment failed',
  canceled: 'Canceled',
  refunded: 'Refunded',
};

function describe(order: Order): React.ReactNode {
  const shop = order.shopOrder;
  if (shop) {
    return (
      <div className="shop-order">
        {shop.image ? <img src={shop.image} alt="" width={48} height={48} loading="lazy" /> : null}
        <div>
          {shop.productPath ? <Link to={shop.productPath}>{shop.title}</Link> : shop.title}
          <div className="muted">
            {shop.variantTitle} × {shop.quantity}
            {shop.shipTo ? ` · to ${shop.shipTo}` : ''}
            {shop.testMode ? ' · test mode' : ''}
          </div>
          <div className="shop-order-status" data-status={shop.status}>
            <strong>{shop.statusLabel}</strong>
            {shop.trackingNumber ? (
              <>
                {' '}
                · Tracking:{' '}
                {shop.trackingUrl ? (
                  <a href={shop.trackingUrl} target="_blank" rel="noreferrer">
                    {shop.trackingNumber}
                  </a>
                ) : (
                  shop.trackingNumber
                )}
                {shop.carrier ? ` (${shop.carrier})` : ''}
              </>
            ) : null}
          </div>
        </div>
      </div>
    );
  }
  if (order.product === 'chapterMaterials') return `Ready-made materials: ${order.description}`;
  if (order.product === 'subscription' && order.description.includes('renewal'))
    return 'Unlimited plan: monthly renewal';
  return order.productName;
}

/** The teacher's orders, newest first; amounts are cents shown as dollars (spec §9). */
export function OrdersList() {
  const orders = useOrders(50);
  if (orders.isPending) return <Loading label="Loading your orders…" />;
  if (orders.isError) return <ErrorBox message={errorMessage(orders.error)} />;
  const { data, count } = orders.data;
  if (data.length === 0) {
    return (
      <p className="empty-state">No orders yet. Purchases and renewals will be listed here.</p>
    );
  }
  return (
    <div className="orders">
      <div className="table-scroll">
        <table className="orders-table">
          <caption className="visually-hidden">Your orders, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Item</th>
              <th scope="col" className="num">
                Amount
              </th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {data.map((order) => (
              <tr key={order._id}>
                <td>{formatShortDate(order.createdAt)}</td>
                <td>{describe(order)}</td>
                <td className="num">{formatCents(order.amount)}</td>
                <td>
                  <span className={`order-status order-${order.status}`}>
                    {STATUS_LABELS[order.status]}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {count > data.length ? (
        <p className="muted">
          Showing the latest {data.length} of {count} orders.
        </p>
      ) : null}
    </div>
  );
}
