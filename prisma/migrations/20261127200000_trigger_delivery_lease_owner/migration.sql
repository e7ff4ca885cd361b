-- The process that leased a trigger delivery (null: not leased). A process that starts gives
-- back at once the leases of processes that are gone, instead of waiting out the lease.
ALTER TABLE "MondayTriggerDelivery" ADD COLUMN "leasedBy" UUID;
