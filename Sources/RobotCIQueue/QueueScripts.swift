/// The Lua scripts that make each queue step atomic in Redis (EVAL runs a script alone:
/// no other client's command interleaves). Key layout: ARCHITECTURE.md, *Queue mode*.
/// Times come from Redis's own clock (`TIME`), so machines' clocks may disagree.
enum QueueScripts {
    /// Redis's clock in milliseconds.
    private static let now = """
        local t = redis.call('TIME')
        local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
        """

    /// Plans the run once. KEYS: plan, batches, queue, seq, since.
    /// ARGV: digest, test count, then one batch JSON per batch.
    /// Returns {'planned', n} for the first machine, {'joined', digest, count} for the others.
    static let join = """
        \(now)
        local existing = redis.call('HGET', KEYS[1], 'digest')
        if existing then
          return {'joined', existing, redis.call('HGET', KEYS[1], 'tests')}
        end
        redis.call('HSET', KEYS[1], 'digest', ARGV[1], 'tests', ARGV[2], 'batches', #ARGV - 2, 'planned', now)
        for i = 3, #ARGV do
          local id = redis.call('INCR', KEYS[4])
          redis.call('HSET', KEYS[2], id, ARGV[i])
          redis.call('HSET', KEYS[5], id, now)
          redis.call('RPUSH', KEYS[3], id)
        end
        return {'planned', #ARGV - 2}
        """

    /// Leases the next batch for a shard. KEYS: queue, leases, owner, batches, alive, done, since.
    /// ARGV: machine, lease ms, avoid ms (how long a retry waits for another machine).
    /// Moves expired leases back to the front of the queue first (any machine reaps).
    /// Returns {'batch', id, json}, {'wait'} (work is leased elsewhere or only own retries
    /// are left while other machines live) or {'done'} (queue empty, nothing leased).
    static let lease = """
        \(now)
        local lease = tonumber(ARGV[2])
        redis.call('ZADD', KEYS[5], now + lease, ARGV[1])
        for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)) do
          redis.call('ZREM', KEYS[2], id)
          redis.call('HDEL', KEYS[3], id)
          if redis.call('SISMEMBER', KEYS[6], id) == 0 then
            redis.call('LPUSH', KEYS[1], id)
          end
        end
        redis.call('ZREMRANGEBYSCORE', KEYS[5], '-inf', now)
        local others = redis.call('ZCARD', KEYS[5]) - 1
        local ids = redis.call('LRANGE', KEYS[1], 0, 199)
        local pick = nil
        for _, id in ipairs(ids) do
          local b = cjson.decode(redis.call('HGET', KEYS[4], id))
          local since = tonumber(redis.call('HGET', KEYS[7], id) or '0')
          if b.avoid == nil or b.avoid ~= ARGV[1] or others <= 0 or now - since > tonumber(ARGV[3]) then
            pick = id
            break
          end
        end
        if pick == nil then
          if #ids == 0 and redis.call('ZCARD', KEYS[2]) == 0 then return {'done'} end
          return {'wait'}
        end
        redis.call('LREM', KEYS[1], 1, pick)
        redis.call('ZADD', KEYS[2], now + lease, pick)
        redis.call('HSET', KEYS[3], pick, ARGV[1])
        return {'batch', pick, redis.call('HGET', KEYS[4], pick)}
        """

    /// Extends this machine's leases. KEYS: leases, owner, alive. ARGV: machine, lease ms, ids….
    /// Returns the ids this machine no longer holds (expired and re-leased elsewhere).
    static let heartbeat = """
        \(now)
        local lease = tonumber(ARGV[2])
        redis.call('ZADD', KEYS[3], now + lease, ARGV[1])
        local lost = {}
        for i = 3, #ARGV do
          if redis.call('HGET', KEYS[2], ARGV[i]) == ARGV[1] then
            redis.call('ZADD', KEYS[1], now + lease, ARGV[i])
          else
            table.insert(lost, ARGV[i])
          end
        end
        return lost
        """

    /// Stores one attempt's result; a second result for the same test and attempt is dropped.
    /// KEYS: results, batches, queue, seq, since. ARGV: field, entry JSON, retry batch JSON or ''.
    /// Only the first result of an attempt pushes its retry, so a batch run twice (a lease
    /// that expired under a slow machine) never retries a test twice.
    /// Returns 0 (duplicate), 1 (stored), 2 (stored, retry queued).
    static let record = """
        \(now)
        if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
        if ARGV[3] == '' then return 1 end
        local id = redis.call('INCR', KEYS[4])
        redis.call('HSET', KEYS[2], id, ARGV[3])
        redis.call('HSET', KEYS[5], id, now)
        redis.call('LPUSH', KEYS[3], id)
        return 2
        """

    /// Finishes a batch. KEYS: queue, leases, owner, batches, done, seq, since, records.
    /// ARGV: machine, batch id, batch record JSON, then batch JSONs to queue (unstarted tests,
    /// isolation runs). Only the first machine to finish a batch queues its leftovers.
    /// Returns 1 when this was the first finish, 0 when another machine finished it first.
    static let ack = """
        \(now)
        redis.call('RPUSH', KEYS[8], ARGV[3])
        if redis.call('HGET', KEYS[3], ARGV[2]) == ARGV[1] then
          redis.call('ZREM', KEYS[2], ARGV[2])
          redis.call('HDEL', KEYS[3], ARGV[2])
        end
        if redis.call('SADD', KEYS[5], ARGV[2]) == 0 then return 0 end
        redis.call('LREM', KEYS[1], 0, ARGV[2])
        for i = 4, #ARGV do
          local id = redis.call('INCR', KEYS[6])
          redis.call('HSET', KEYS[4], id, ARGV[i])
          redis.call('HSET', KEYS[7], id, now)
          redis.call('LPUSH', KEYS[1], id)
        end
        return 1
        """

    /// Sets the time to live on every key of the run. KEYS: all of them. ARGV: seconds.
    static let expire = """
        for _, k in ipairs(KEYS) do redis.call('EXPIRE', k, tonumber(ARGV[1])) end
        return #KEYS
        """
}
